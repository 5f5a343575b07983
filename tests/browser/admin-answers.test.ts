// The admin's questions answered on the first screen they are asked on, at 1440 and 390 px, on the demo fleet:
// why each volume at risk fills (the full ones counted apart, out of space or of inodes), what Total storage
// measures beside the whole homes (their figures checked against the homes CSV and the agents index), how to
// connect Coder fully (the sync and the sign-in, each with its proof; no "while running" without a sync), the
// volumes at risk and the agents index in CSVs of the pages' own figures, the findings one row per rule first
// (adding up to the CSV's rows), a rule's by template, then by workspace, with counts and bytes, and at
// 390 px no overlapping cells in the workspaces list and the cleanup recipes' "Frees" and "New run" in view.
// Screenshots of the grouped findings at both widths go to screenshots/ (git-ignored), to be looked at.
import fs from "node:fs";
import { parse } from "csv-parse/sync";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AtRiskPage } from "@/lib/db/queries/volumes-at-risk";
import { exactBytes, formatBytes } from "@/lib/format/bytes";
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

/** A CSV's rows as objects by header. */
async function csvRows(page: Page, url: string): Promise<Record<string, string>[]> {
  const res = await page.request.get(`${h.base}${url}`);
  expect(res.status(), url).toBe(200);
  return parse(await res.text(), { columns: true }) as Record<string, string>[];
}

/** The CSV behind the export link in the panel of the table `testId`. */
async function panelCsv(page: Page, testId: string): Promise<Record<string, string>[]> {
  const panel = page.locator("section.panel", { has: page.getByTestId(testId) });
  return csvRows(page, (await panel.locator(".panel-head [data-testid=export-link]").getAttribute("href"))!);
}

/** The exact bytes ("1,234 bytes") of a cell's size, as its title says them. */
const titleOf = async (cell: import("playwright-core").Locator) =>
  (await cell.locator("[title]").count()) ? await cell.locator("[title]").first().getAttribute("title") : null;

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

  it("exports the volumes at risk with the page's count, rows and figures", async () => {
    const page = await open("/volumes?days=90", width);
    const link = page.locator(".panel-head [data-testid=export-link]");
    await expect(link.getAttribute("href")).resolves.toBe("/api/v1/export/volumes.csv?days=90");
    const rows = await panelCsv(page, "at-risk");
    const count = await page.getByTestId("at-risk-count").textContent();
    const full = rows.filter((r) => r.full_by !== "");
    const space = full.filter((r) => r.full_by === "space").length;
    expect(count).toContain(
      `${rows.length.toLocaleString("en-US")} volume${rows.length === 1 ? "" : "s"} full or filling within 90 days: ` +
        `${full.length} full (${space} out of space, ${full.length - space} out of inodes), ${rows.length - full.length} filling`,
    );
    // the rows shown are the file's first, in its order, with its figures
    const shown = await page
      .getByTestId("at-risk")
      .locator("tbody tr")
      .evaluateAll((trs) =>
        trs.map((tr) => ({
          href: tr.querySelector("a.cell-main")?.getAttribute("href") ?? "",
          // a full volume says what it ran out of; a filling one its forecast's day, exact on hover
          fullIn: tr.querySelector("td:nth-child(2)")?.textContent ?? "",
          forecast: tr.querySelector("td:nth-child(2) [title]")?.getAttribute("title") ?? "",
          avail: tr.querySelector("td:nth-child(3) [title]")?.getAttribute("title") ?? "",
        })),
      );
    expect(shown.length).toBeGreaterThan(0);
    expect(shown).toEqual(
      rows.slice(0, shown.length).map((r, i) => ({
        href: `/workspaces/${encodeURIComponent(r.workspace_id)}`,
        // a filling volume's days are counted from the moment of each request: its forecast's time is compared
        fullIn: r.full_by ? r.full_in : shown[i].fullIn,
        forecast: r.forecast_full_at,
        avail: exactBytes(Number(r.volume_avail_bytes)),
      })),
    );
    await page.context().close();
  });

  it("exports the agents index with its rows, adding up to the page's total", async () => {
    const page = await open("/agents", width);
    const rows = await panelCsv(page, "agents-index");
    const total = await page.locator(".page-head .sub [title]").first().getAttribute("title");
    expect(exactBytes(rows.reduce((s, r) => s + Number(r.bytes), 0))).toBe(total);
    const cells = page.getByTestId("agents-index").locator("tbody tr td:nth-child(2)");
    await expect(cells.count()).resolves.toBe(rows.length);
    for (const [i, r] of rows.entries()) await expect(titleOf(cells.nth(i))).resolves.toBe(exactBytes(Number(r.bytes)));
    await page.context().close();
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

  it("groups a rule's findings by template, then by workspace, with counts and bytes that add up", async () => {
    const page = await open("/findings", width);
    // the rule of sizes with the most findings: its row says its bytes, exact on hover
    const byRule = await page
      .getByTestId("findings-by-rule")
      .locator("tbody tr")
      .evaluateAll((trs) =>
        trs.map((tr) => {
          const num = tr.querySelectorAll("td.num");
          return {
            href: tr.querySelector("a")?.getAttribute("href") ?? "",
            count: Number((num[0]?.textContent ?? "").replace(/,/g, "")),
            bytes: num[2]?.querySelector("[title]")?.getAttribute("title") ?? null,
          };
        }),
      );
    const rule = byRule.filter((r) => r.bytes).sort((a, b) => b.count - a.count)[0];
    expect(rule).toBeDefined();
    await page.locator(`[data-testid=findings-by-rule] a[href="${rule.href}"]`).click();
    await page.waitForURL((u) => u.searchParams.has("rule"));
    const table = page.getByTestId("findings-by-template");
    await table.waitFor();
    const templates = await table.locator("tbody tr").evaluateAll((trs) =>
      trs.map((tr) => {
        const num = tr.querySelectorAll("td.num");
        return {
          template: tr.querySelector(".cell-main")?.textContent ?? "",
          count: Number((num[0]?.textContent ?? "").replace(/,/g, "")),
          workspaces: Number((num[1]?.textContent ?? "").replace(/,/g, "")),
          bytes: Number((num[2]?.querySelector("[title]")?.getAttribute("title") ?? "").replace(/[^\d]/g, "")),
        };
      }),
    );
    // tens of rows to read, the most findings first, adding up to the rule's count and bytes
    expect(templates.length).toBeGreaterThan(0);
    expect(templates.length).toBeLessThan(50);
    expect(templates.map((t) => t.count)).toEqual(templates.map((t) => t.count).sort((a, b) => b - a));
    expect(templates.reduce((s, t) => s + t.count, 0)).toBe(rule.count);
    expect(exactBytes(templates.reduce((s, t) => s + t.bytes, 0))).toBe(rule.bytes);
    fs.mkdirSync("screenshots", { recursive: true });
    await page.screenshot({ path: `screenshots/findings-rule-${width}.png`, fullPage: true });
    // a template opens its rows, one per workspace, as many as it counts
    const first = templates.find((t) => t.template !== "No template") ?? templates[0];
    await table.getByRole("link", { name: first.template, exact: true }).click();
    await page.waitForURL((u) => u.searchParams.get("template") === first.template);
    await expect.poll(() => table.count()).toBe(0);
    const rows = page.getByTestId("finding");
    await rows.first().waitFor();
    const counts = await rows.evaluateAll((els) => els.map((e) => Number(e.getAttribute("data-count") ?? "1")));
    if (counts.length < 50) expect(counts.reduce((s, n) => s + n, 0)).toBe(first.count);
    await page.screenshot({ path: `screenshots/findings-template-${width}.png`, fullPage: true });
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
