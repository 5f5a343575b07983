import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ADMIN_PAGES, MEMBER_PAGES, pageRole } from "./page-roles";

const DASHBOARD = path.join(process.cwd(), "app", "(dashboard)");

/** Every page of the signed-in shell: its route (the group folder is not part of it) and its source. */
function pages(dir = DASHBOARD): { route: string; source: string }[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return pages(full);
    if (e.name !== "page.tsx") return [];
    const route = `/${path.relative(DASHBOARD, dir).split(path.sep).join("/")}`.replace(/\/$/, "") || "/";
    return [{ route, source: fs.readFileSync(full, "utf8") }];
  });
}

describe("pageRole", () => {
  it("names admin pages with or without a query or trailing slash", () => {
    expect(pageRole("/users")).toBe("admin");
    expect(pageRole("/audit?actor=x")).toBe("admin");
    expect(pageRole("/cleanup/new/")).toBe("admin");
    expect(pageRole("/cleanup")).toBe("viewer");
    expect(pageRole("/agents/codex")).toBe("viewer");
    expect(pageRole("/settings")).toBe("viewer");
  });

  it("opens a member's own pages to members, by pattern, and nothing below them", () => {
    expect(pageRole("/")).toBe("member");
    expect(pageRole("/workspaces?sort=name")).toBe("member");
    expect(pageRole("/workspaces/ws-1/")).toBe("member");
    expect(pageRole("/workspaces/ws-1/other")).toBe("viewer");
    expect(pageRole("/findings/rules")).toBe("member");
  });

  // The layout's 403 and the page's own check must agree, or a page load and a client navigation differ.
  it("lists exactly the pages that ask for the admin role", () => {
    const all = pages();
    expect(all.length).toBeGreaterThan(10);
    const asking = all.filter((p) => p.source.includes('requirePage("admin")')).map((p) => p.route);
    expect(new Set(asking)).toEqual(new Set(ADMIN_PAGES));
  });

  // A page open to members reads within the member's scope: it must ask for the member role itself (and so get
  // the caller's scope), and be listed so that the layout lets members through.
  it("lists exactly the pages that ask for the member role", () => {
    const asking = pages()
      .filter((p) => p.source.includes('requirePage("member")'))
      .map((p) => p.route);
    expect(new Set(asking)).toEqual(new Set(MEMBER_PAGES));
  });
});
