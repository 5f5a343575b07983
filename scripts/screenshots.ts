// Screenshots of every dashboard page in both themes at 1280x800, into screenshots/ (git-ignored).
//   DASHBOARD_URL=http://localhost:3000 node --import tsx scripts/screenshots.ts
// Without DASHBOARD_URL it builds if needed, seeds a demo database and starts `next start` itself.
import fs from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";
import { launchChromium } from "../tests/browser/chromium";
import { ADMIN, signInAs } from "../tests/browser/harness";
import { startDashboard } from "../tests/browser/server";

const OUT = path.resolve("screenshots");

async function firstWorkspaceHref(page: Page, base: string): Promise<string> {
  await page.goto(`${base}/workspaces`, { waitUntil: "networkidle" });
  const href = await page.locator('[data-testid="workspaces-table"] tbody tr a').first().getAttribute("href");
  if (!href) throw new Error("No workspace row on /workspaces: is the database seeded?");
  return href;
}

async function main() {
  const server = process.env.DASHBOARD_URL ? null : await startDashboard({ workspaces: 60, days: 30 });
  const base = process.env.DASHBOARD_URL ?? server!.url;
  const browser = await launchChromium();
  try {
    fs.mkdirSync(OUT, { recursive: true });
    // Every page needs a signed-in user: the demo admin (or DASHBOARD_EMAIL / DASHBOARD_PASSWORD).
    const storageState = await signInAs(browser, base, ADMIN);
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, storageState });
    const page = await context.newPage();
    page.on("console", (m) => {
      if (m.type() === "error") console.error(`  console error on ${page.url()}: ${m.text()}`);
    });
    const ws = await firstWorkspaceHref(page, base);
    const pages: [string, string][] = [
      ["overview", "/"],
      ["workspaces", "/workspaces"],
      ["workspace", ws],
      ["agent-claude-code", "/agents/claude-code"],
      ["findings", "/findings"],
      ["connect", "/connect"],
      ["users", "/users"],
      ["audit", "/audit"],
      ["not-found", "/workspaces/no-such-workspace"],
    ];
    for (const theme of ["light", "dark"] as const) {
      await context.addInitScript((t) => localStorage.setItem("theme", t), theme);
      for (const [name, route] of pages) {
        await page.goto(`${base}${route}`, { waitUntil: "networkidle" });
        await page.evaluate((t) => localStorage.setItem("theme", t), theme);
        await page.reload({ waitUntil: "networkidle" });
        await page.waitForTimeout(300);
        const file = path.join(OUT, `${name}-${theme}.png`);
        await page.screenshot({ path: file, fullPage: process.env.FULL_PAGE === "1" });
        console.log(file);
      }
    }
  } finally {
    await browser.close();
    await server?.stop();
  }
}

await main();
