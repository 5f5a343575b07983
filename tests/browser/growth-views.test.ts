// Growth per module, per template and per owner, in the built app: a module folder's fleet page answers 200 with
// its figures and 404 when no workspace holds it; its change follows the range picker and equals its chart's first
// and last points (the chart's CSV); a workspace's roots link to it; the workspaces page filtered by one template
// states that set's change over 30 days. Screenshots go to screenshots/growth-views-*.png.
import fs from "node:fs";
import path from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ModuleDetail } from "@/lib/db/queries/modules";
import type { WorkspaceList } from "@/lib/db/queries/workspace-list";
import { formatBytes, formatBytesDelta } from "@/lib/format/bytes";
import { startHarness, type Harness } from "./harness";

const MODULE = "coder/claude-code"; // every demo workspace with Claude Code holds its module folder
let h: Harness;

async function open(
  pathname: string,
): Promise<{ page: Page; context: BrowserContext; status: number; errors: string[] }> {
  const context = await h.browser.newContext({ viewport: { width: 1440, height: 900 }, storageState: h.admin });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  const res = await page.goto(`${h.base}${pathname}`, { waitUntil: "networkidle" });
  await page.waitForSelector("html[data-hydrated]", { state: "attached", timeout: 15_000 });
  return { page, context, status: res?.status() ?? 0, errors };
}

async function shot(page: Page, name: string) {
  fs.mkdirSync("screenshots", { recursive: true });
  await page.screenshot({ path: path.join("screenshots", `growth-views-${name}.png`), fullPage: true });
}

async function getJson<T>(page: Page, url: string): Promise<T> {
  const res = await page.request.get(`${h.base}${url}`);
  expect(res.status(), url).toBe(200);
  return (await res.json()) as T;
}

beforeAll(async () => {
  h = await startHarness();
});

afterAll(async () => {
  await h?.close();
});

describe("a module's fleet page", () => {
  it("answers 200 with its total and workspaces, and 404 for a module no workspace holds", async () => {
    const { page, context, status, errors } = await open(`/modules/${MODULE}`);
    expect(status).toBe(200);
    const detail = await getJson<ModuleDetail>(page, `/api/v1/modules/${MODULE}`);
    expect(detail.total.workspaces).toBeGreaterThan(0);
    await expect(page.getByTestId("module-total").locator(".stat-value").textContent()).resolves.toBe(
      formatBytes(detail.total.bytes),
    );
    const rows = page.locator('[data-testid="module-workspaces"] tbody tr');
    expect(await rows.count()).toBeGreaterThan(0);
    await expect(rows.first().locator("a").getAttribute("href")).resolves.toBe(
      `/workspaces/${encodeURIComponent(detail.workspaces[0].id)}`,
    );
    await shot(page, "module");
    expect(errors).toEqual([]);
    await context.close();

    for (const unknown of ["/modules/coder/no-such-module", "/modules/coder/%20bad"]) {
      const missing = await open(unknown);
      expect(missing.status, unknown).toBe(404);
      await missing.context.close();
    }
  });

  it("states the change over the picked range, equal to the chart's first and last points", async () => {
    const { page, context, errors } = await open(`/modules/${MODULE}?range=7d`);
    const stat = page.getByTestId("module-range-change");
    const seen: string[] = [];
    for (const [range, label] of [
      ["7d", "7 d"],
      ["90d", "90 d"],
    ] as const) {
      if (range !== "7d")
        await page.getByRole("group", { name: "Time range" }).getByRole("button", { name: label }).click();
      await page.waitForURL((u) => u.searchParams.get("range") === range);
      // The chart's points, as its CSV export gives them: "day,bytes" per day of the range.
      const csv = await page.request.get(`${h.base}/api/v1/export/modules/${MODULE}.csv?range=${range}`);
      expect(csv.status()).toBe(200);
      const points = (await csv.text())
        .trim()
        .split("\r\n")
        .slice(1)
        .map((l) => l.split(","));
      const [first, last] = [points[0], points.at(-1)!];
      const want = formatBytesDelta(Number(last[1]) - Number(first[1]));
      await stat
        .locator(".stat-sub")
        .filter({ hasText: `on ${first[0]} to` })
        .waitFor();
      await expect(stat.locator(".stat-value").textContent()).resolves.toBe(want);
      await expect(stat.locator(".stat-sub").textContent()).resolves.toContain(`on ${last[0]}`);
      seen.push(`${want} from ${first[0]}`);
    }
    expect(new Set(seen).size).toBe(2);
    await shot(page, "module-90d");
    expect(errors).toEqual([]);
    await context.close();
  });

  it("is linked from a workspace's roots", async () => {
    const modulePage = await open(`/modules/${MODULE}`);
    const detail = await getJson<ModuleDetail>(modulePage.page, `/api/v1/modules/${MODULE}`);
    await modulePage.context.close();
    const { page, context } = await open(`/workspaces/${encodeURIComponent(detail.workspaces[0].id)}`);
    await expect(page.locator(`a[href="/modules/${MODULE}"]`).count()).resolves.toBeGreaterThan(0);
    await context.close();
  });
});

describe("a template's growth on the workspaces page", () => {
  it("states the filtered set's total, change and workspaces over 30 days", async () => {
    const all = await open("/workspaces");
    const first = await getJson<WorkspaceList>(all.page, "/api/v1/workspaces?pageSize=1");
    await all.context.close();
    const template = first.rows[0].template!;
    const { page, context, errors } = await open(`/workspaces?template=${encodeURIComponent(template)}`);
    const list = await getJson<WorkspaceList>(page, `/api/v1/workspaces?template=${encodeURIComponent(template)}`);
    const g = list.growth!;
    expect(g.workspaces).toBe(list.total);
    const [from, to] = [g.series[0], g.series.at(-1)!];
    const line = page.getByTestId("set-growth");
    await line.waitFor();
    const text = (await line.textContent())!;
    expect(text).toContain(`Template ${template}: ${formatBytes(to.bytes)} now`);
    expect(text).toContain(`${formatBytesDelta(to.bytes - from.bytes)}`);
    expect(text).toContain(`since ${from.day}`);
    expect(text).toMatch(new RegExp(`in ${list.total} workspaces?\\.$`));
    await expect(page.getByTestId("set-growth").count()).resolves.toBe(1);
    await shot(page, "template");
    expect(errors).toEqual([]);
    await context.close();
  });
});
