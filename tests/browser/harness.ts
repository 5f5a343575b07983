// Shared state for the browser tests: one dashboard (or DASHBOARD_URL) and one Chromium for the whole file.
import type { Browser, BrowserContext, Page } from "playwright-core";
import { launchChromium } from "./chromium";
import { startDashboard, type Dashboard } from "./server";

export type Harness = { base: string; browser: Browser; close: () => Promise<void> };

export async function startHarness(): Promise<Harness> {
  // Chromium first: a missing browser fails fast, before a build.
  const browser = await launchChromium();
  let server: Dashboard | null = null;
  try {
    server = process.env.DASHBOARD_URL ? null : await startDashboard({ workspaces: 60, days: 30 });
  } catch (err) {
    await browser.close();
    throw err;
  }
  const base = process.env.DASHBOARD_URL ?? server!.url;
  return {
    base,
    browser,
    close: async () => {
      await browser.close().catch(() => undefined);
      await server?.stop();
    },
  };
}

export type OpenedPage = { page: Page; context: BrowserContext; errors: string[] };

/** A fresh context at 1280x800 that records console errors and uncaught page errors. */
export async function openPage(h: Harness, path: string, opts: { colorScheme?: "light" | "dark" } = {}): Promise<OpenedPage> {
  const context = await h.browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: opts.colorScheme ?? "light" });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(`${m.text()} (${m.location().url})`);
  });
  page.on("pageerror", (e) => errors.push(`uncaught: ${e.message}`));
  const res = await page.goto(`${h.base}${path}`, { waitUntil: "networkidle" });
  if (!res) throw new Error(`No response for ${path}`);
  if (res.status() >= 400) throw new Error(`${path} answered ${res.status()}`);
  await page.waitForSelector("html[data-hydrated]", { state: "attached", timeout: 15_000 });
  return { page, context, errors };
}

/** Waits until an SVG path with a non-empty d exists under `selector`, and returns how many there are. */
export async function chartPaths(page: Page, selector: string): Promise<number> {
  await page.waitForFunction(
    (sel) => [...document.querySelectorAll(`${sel} svg path`)].some((p) => (p.getAttribute("d") ?? "").length > 10),
    selector,
    { timeout: 15_000 },
  );
  return page.evaluate(
    (sel) => [...document.querySelectorAll(`${sel} svg path`)].filter((p) => (p.getAttribute("d") ?? "").length > 10).length,
    selector,
  );
}
