// Where a full disk's bytes go, in the browser, on the demo fleet: a workspace whose volume is full shows its
// whole home split into agents, modules, caches, projects and the rest, with what lies outside the home, lines
// that add up to df's Used; the fleet overview shows what fills the homes. Screenshots go to
// screenshots/whole-home-*.png.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { openPage, startHarness, type Harness } from "./harness";

const SHOTS = "screenshots";
let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

it("explains a full workspace's Used line by line, and the fleet's homes on the overview", async () => {
  const api = await h.browser.newContext({ storageState: h.admin });
  const res = await api.request.get(`${h.base}/api/v1/findings?rule=volume-full`);
  expect(res.status()).toBe(200);
  const { findings } = (await res.json()) as { findings: { workspace: { id: string } }[] };
  await api.close();
  expect(findings.length).toBeGreaterThan(0);

  const { page, context, errors } = await openPage(h, `/workspaces/${encodeURIComponent(findings[0].workspace.id)}`);
  const split = page.getByTestId("home-split");
  await split.waitFor();
  const used = await page.getByTestId("volume-table").locator("tbody tr").first().locator("td").nth(2).textContent();
  await expect(page.locator("#home h2").textContent()).resolves.toBe(`Where the ${used} go`);
  const labels = await split.locator("tbody tr td:first-child").allTextContents();
  expect(labels.some((t) => t.startsWith("Agents' folders"))).toBe(true);
  expect(labels.some((t) => t.startsWith("Package caches"))).toBe(true);
  expect(labels.some((t) => t.startsWith("Project dependencies"))).toBe(true);
  expect(labels.some((t) => t.startsWith("Outside the home"))).toBe(true);
  await expect(page.getByTestId("home-largest").locator("tbody tr").count()).resolves.toBeGreaterThan(3);
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, "whole-home-workspace.png"), fullPage: true });
  expect(errors).toEqual([]);
  await context.close();

  const overview = await openPage(h, "/");
  const fleet = overview.page.getByTestId("fleet-home-split");
  await fleet.waitFor();
  const rows = await fleet.locator("tbody tr td:first-child").allTextContents();
  expect(rows).toEqual(["Agents", "Modules", "Package caches", "Project dependencies", "Other"]);
  await fleet.scrollIntoViewIfNeeded();
  await overview.page.screenshot({ path: path.join(SHOTS, "whole-home-fleet.png"), fullPage: true });
  expect(overview.errors).toEqual([]);
  await overview.context.close();
});
