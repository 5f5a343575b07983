import { describe, expect, it } from "vitest";
import { resolveWorkspace, searchTermOf } from "./workspace-names";

const ws = [
  { id: "11111111-0000-0000-0000-000000000001", name: "billing-yara-39", owner: "yara" },
  { id: "11111111-0000-0000-0000-000000000002", name: "dev", owner: "yara" },
  { id: "11111111-0000-0000-0000-000000000003", name: "dev", owner: "bob" },
  { id: "11111111-0000-0000-0000-000000000004", name: "dev-2", owner: "bob" },
];
const all = { candidates: ws, complete: true };

describe("resolveWorkspace", () => {
  it("takes a unique name, an owner/name and an id", () => {
    expect(resolveWorkspace("billing-yara-39", all)).toEqual({ ok: true, id: ws[0].id });
    expect(resolveWorkspace("Billing-Yara-39", all)).toEqual({ ok: true, id: ws[0].id });
    expect(resolveWorkspace("bob/dev", all)).toEqual({ ok: true, id: ws[2].id });
    expect(resolveWorkspace(ws[3].id, all)).toEqual({ ok: true, id: ws[3].id });
  });

  it("refuses a name two owners use, naming both, and a name nobody uses", () => {
    expect(resolveWorkspace("dev", all)).toEqual({
      ok: false,
      problem: "“dev” names 2 workspaces (yara/dev, bob/dev): write owner/name.",
    });
    expect(resolveWorkspace("alice/dev", all)).toEqual({ ok: false, problem: "No workspace is named “alice/dev”." });
    expect(resolveWorkspace("de", all)).toEqual({ ok: false, problem: "No workspace is named “de”." });
  });

  it("does not call a name unknown when the lookup listed only part of what matched, nor before it answered", () => {
    expect(resolveWorkspace("qa", { candidates: ws, complete: false })).toMatchObject({
      ok: false,
      problem: expect.stringMatching(/^More workspaces match/),
    });
    expect(resolveWorkspace("dev-2", { candidates: ws, complete: false })).toEqual({ ok: true, id: ws[3].id });
    expect(resolveWorkspace("dev", null)).toEqual({ ok: false, problem: "Looking up “dev”…" });
  });
});

describe("searchTermOf", () => {
  it("searches an owner/name by its name, which the workspaces list searches", () => {
    expect(searchTermOf("bob/dev")).toBe("dev");
    expect(searchTermOf("dev")).toBe("dev");
  });
});
