// The admin's questions answered on the first screen they are asked on, at 1440 and 390 px, on the demo fleet:
// why each volume at risk fills (the full ones counted apart, out of space or of inodes), what Total storage
// measures beside the whole homes (their figures checked against the homes CSV and the agents index), how to
// connect Coder fully (the sync and the sign-in, each with its proof; no "while running" without a sync), the
// findings one row per rule first (adding up to the CSV's rows), and at
// 390 px no overlapping cells in the workspaces list and the cleanup recipes' "Frees" and "New run" in view.
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AtRiskPage } from "@/lib/db/queries/volumes-at-risk";
import { formatBytes } from "@/lib/format/bytes";
import { startHarness, type Harness } from "./harness";

let h: Harness;
const WIDTHS = [1440, 390] as const;

beforeAll(async () => {
  h = await startHarness();
});

afterAll(async () => {
  await h?.close();
});

async function open(pathname: string, width: number): Promise<Page> {
  const context = await h.browser.newContext({ viewport: { width, height: 900 }, storageState: h.admin });
  const page = await context.newPage();
  await page.goto(`${h.base}${pathname}`, { waitUntil: "networkidle" });
  await page.waitForSelector("html[data-hydrated]", { state: "attached", timeout: 15_000 });
  return page;
}

/** A CSV's rows as objects by header (the files here hold no quoted commas). */
async function csvRows(page: Page, url: string): Promise<Record<string, string>[]> {
  const res = await page.request.get(`${h.base}${url}`);
  expect(res.status(), url).toBe(200);
  const [head, ...lines] = (await res.text()).trim().split("\n");
  const names = head.split(",");
  return lines.map((l) => Object.fromEntries(l.split(",").map((v, i) => [names[i], v])));
}

describe.each(WIDTHS)("at %i px", (width) => {
  it("says why each volume at risk fills, the full ones counted out of space and out of inodes", async () => {
    const page = await open("/volumes?days=7", width);
    const api = (await (
      await page.request.get(`${h.base}/api/v1/volumes/at-risk?days=7&limit=200`)
    ).json()) as AtRiskPage;
    expect(api.full).toBeGreaterThan(0);
    expect(api.outOfSpace + api.outOfInodes).toBe(api.full);
    await expect(page.getByTestId("at-risk-count").textContent()).resolves.toContain(
      `${api.full} full (${api.outOfSpace} out of space, ${api.outOfInodes} out of inodes)`,
    );
    const whys = await page.getByTestId("why-it-fills").allTextContents();
    expect(whys.length).toBeGreaterThan(0);
    api.volumes.slice(0, whys.length).forEach((v, i) => {
      // a full volume is explained by what it holds (its files when out of inodes), never by an absent growth
      if (v.fullBy === "space") expect(whys[i]).toContain("largest roots");
      if (v.fullBy === "inodes") expect(whys[i]).toContain("most files");
      expect(whys[i]).not.toBe("");
    });
    await page.context().close();
  });

  it("says what Total storage measures, with the whole homes beside it, in the homes CSV's and agents' figures", async () => {
    const page = await open("/", width);
    const homes = Object.fromEntries(
      (await csvRows(page, "/api/v1/export/fleet/homes.csv")).map((r) => [r.part, Number(r.bytes)]),
    );
    const home = ["agents", "modules", "caches", "projects", "other"].reduce((s, k) => s + homes[k], 0);
    const value = (id: string) => page.getByTestId(id).locator(".stat-value").textContent();
    await expect(value("whole-homes")).resolves.toBe(formatBytes(home));
    await expect(page.getByTestId("outside-roots").textContent()).resolves.toBe(
      formatBytes(home - homes["measured-roots"]),
    );
    const explained = await page.getByTestId("total-explained").textContent();
    expect(explained).toContain("Total storage is what the reporter measures in the roots");
    // one quantity, one figure: the agents index adds up to Total storage
    const total = await page.getByTestId("total-storage").locator(".stat-value [title]").getAttribute("title");
    const agents = await open("/agents", width);
    await expect(agents.locator(".page-head .sub [title]").first().getAttribute("title")).resolves.toBe(total);
    await page.context().close();
    await agents.context().close();
  });

  it("walks the whole way in: the reporter, the Coder sync and Sign in with Coder, each with its proof", async () => {
    const page = await open("/connect", width);
    for (const id of ["first-report", "coder-sync-proof", "coder-sign-in-proof"])
      await expect(page.getByTestId(id).isVisible(), id).resolves.toBe(true);
    await expect(page.getByTestId("coder-sync-env").textContent()).resolves.toContain("CODER_SESSION_TOKEN=");
    await expect(page.getByTestId("coder-callback-url").textContent()).resolves.toMatch(
      /\/api\/auth\/oauth2\/callback\/coder$/,
    );
    // the test's dashboard has no Coder sync: the overview does not say which silent workspaces are running
    const overview = await open("/", width);
    await expect(overview.getByRole("heading", { name: /^Stopped reporting/ }).textContent()).resolves.not.toContain(
      "while running",
    );
    await expect(overview.getByTestId("silent-unsynced").isVisible()).resolves.toBe(true);
    await page.context().close();
    await overview.context().close();
  });
});

describe.each(WIDTHS)("the findings at %i px", (width) => {
  it("reads first one row per rule, the critical first, adding up to the CSV's rows", async () => {
    const page = await open("/findings", width);
    const table = page.getByTestId("findings-by-rule");
    const rules = await table.locator("tbody tr").evaluateAll((trs) =>
      trs.map((tr) => ({
        severity: tr.querySelector(".badge")?.textContent ?? "",
        rows: Number((tr.querySelectorAll("td.num")[1]?.textContent ?? "").replace(/,/g, "")),
      })),
    );
    expect(rules.length).toBeGreaterThan(0);
    expect(rules.length).toBeLessThan(50);
    const rank = (s: string) => ["critical", "warning", "info"].indexOf(s);
    expect(rules.map((r) => rank(r.severity))).toEqual(rules.map((r) => rank(r.severity)).sort((a, b) => a - b));
    // the CSV keeps every row of every rule
    const csv = await csvRows(page, "/api/v1/export/findings.csv");
    expect(rules.reduce((s, r) => s + r.rows, 0)).toBe(csv.length);
    await page.context().close();
  });
});

describe("at 390 px", () => {
  it("draws no workspaces list cell over another", async () => {
    const page = await open("/workspaces", 390);
    const overlaps = await page.getByTestId("workspaces-table").evaluate((table) => {
      const found: string[] = [];
      for (const tr of [...table.querySelectorAll("tbody tr")].slice(0, 20)) {
        // what each cell draws: its content may reach past the cell's own box
        const boxes = [...tr.querySelectorAll("td")].map((td) => {
          const r = td.getBoundingClientRect();
          const right = Math.max(r.left, ...[...td.querySelectorAll("*")].map((e) => e.getBoundingClientRect().right));
          return { left: r.left, right, top: r.top, bottom: r.bottom, text: td.textContent };
        });
        for (const [i, a] of boxes.entries())
          for (const b of boxes.slice(i + 1))
            if (a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1)
              found.push(`${a.text} | ${b.text}`);
      }
      return found;
    });
    expect(overlaps).toEqual([]);
    await page.context().close();
  });

  it("keeps the cleanup recipes' Frees and New run in view", async () => {
    const page = await open("/cleanup", 390);
    const row = page.locator('[data-testid="recipes"] tbody tr').first();
    for (const cell of [row.locator("td.num").first(), row.getByRole("link", { name: "New run" })]) {
      const box = (await cell.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(390);
    }
    await page.context().close();
  });
});
