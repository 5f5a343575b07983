// What survives a restart, in the browser on the demo fleet: the "Lost at restart" page groups the workspaces of
// the template without a home volume and of the one that links ~/.codex into /dev/shm, and a workspace of each
// shows why in its "Survives a restart?" panel. At 1440 and 390 px; screenshots go to screenshots/restart-*.png.
import fs from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { openPage, startHarness, type Harness } from "./harness";

const SHOTS = "screenshots";
let h: Harness;

beforeAll(async () => {
  h = await startHarness();
  fs.mkdirSync(SHOTS, { recursive: true });
});
afterAll(async () => {
  await h?.close();
});

const WIDTHS = [1440, 390] as const;
const shot = (page: Page, name: string) =>
  page.screenshot({ path: path.join(SHOTS, `restart-${name}.png`), fullPage: true });

it.each(WIDTHS)("lists the workspaces lost at restart by template (%i px)", async (width) => {
  const { page, context, errors } = await openPage(h, "/restart");
  await page.setViewportSize({ width, height: 900 });
  const ephemeral = page.getByRole("region", { name: /^docker-ephemeral: \d+ of \d+ workspaces$/ });
  await ephemeral.waitFor();
  await expect(ephemeral.textContent()).resolves.toContain("Mount a persistent volume at the home in this template");
  const ram = page.getByRole("region", { name: /^codex-ramdisk: \d+ of \d+ workspaces$/ });
  await expect(ram.textContent()).resolves.toContain("codex:data on .codex → /dev/shm/codex");
  // No other template loses anything in the demo.
  await expect(page.locator("section.panel").count()).resolves.toBe(2);
  await shot(page, `fleet-${width}`);
  expect(errors).toEqual([]);
  await context.close();
});

it.each(WIDTHS)("says in a workspace's panel what a restart loses and why (%i px)", async (width) => {
  const api = await h.browser.newContext({ storageState: h.admin });
  const risk = (await (await api.request.get(`${h.base}/api/v1/fleet/restart`)).json()) as {
    templates: { template: string; atRisk: { id: string }[] }[];
  };
  await api.close();
  const first = (t: string) => risk.templates.find((g) => g.template === t)!.atRisk[0].id;
  for (const [template, home, text] of [
    ["docker-ephemeral", "lost at every stop", "the container's writable layer (overlay)"],
    ["codex-ramdisk", "survives", "linked ~/.codex → /dev/shm/codex"],
  ] as const) {
    const { page, context, errors } = await openPage(h, `/workspaces/${encodeURIComponent(first(template))}`);
    await page.setViewportSize({ width, height: 900 });
    const panel = page.getByTestId("restart-panel");
    await panel.waitFor();
    const content = (await panel.textContent()) ?? "";
    expect(content).toContain(`Home: ${home}`);
    expect(content).toContain(text);
    await panel.scrollIntoViewIfNeeded();
    await page.locator("#restart").screenshot({ path: path.join(SHOTS, `restart-panel-${template}-${width}.png`) });
    expect(errors).toEqual([]);
    await context.close();
  }
});
