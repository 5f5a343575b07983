// Shared state for the browser tests: the shared dashboard (or DASHBOARD_URL, or one of the file's own) and one
// Chromium for the whole file.
import fs from "node:fs";
import type { Browser, BrowserContext, BrowserContextOptions, Page } from "playwright-core";
import { launchChromium } from "./chromium";
import { startDashboard, type Dashboard } from "./server";

export type StorageState = BrowserContextOptions["storageState"];
export type Harness = {
  base: string;
  /**
   * The same dashboard as "localhost". Next hands route handlers a request.url on "localhost" while the test
   * server listens on 127.0.0.1, and the same-site check compares the browser's Origin with it: pages that post
   * (a cleanup, a truncation, a new user) browse here, so that the mutation is same-origin by both measures.
   */
  site: string;
  browser: Browser;
  /** The demo admin's signed-in session (cookies), for pages that are not about signing in. */
  admin: StorageState;
  /** What the server printed so far. */
  serverLog: () => string;
  close: () => Promise<void>;
};

/** The demo admin that scripts/demo.ts creates (or DASHBOARD_EMAIL / DASHBOARD_PASSWORD for DASHBOARD_URL). */
export const ADMIN = {
  email: process.env.DASHBOARD_EMAIL ?? "admin@example.com",
  password: process.env.DASHBOARD_PASSWORD ?? "demo-admin-password",
};

/** Signs in through the sign-in page and returns the browser's session state. */
export async function signInAs(
  browser: Browser,
  base: string,
  who: { email: string; password: string },
): Promise<StorageState> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${base}/sign-in`, { waitUntil: "networkidle" });
  await page.waitForSelector("html[data-hydrated]", { state: "attached", timeout: 15_000 });
  await page.getByLabel("Email").fill(who.email);
  await page.getByLabel("Password").fill(who.password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  // The page after sign-in is the overview, the heaviest to render: a busy machine can take a while.
  await page.waitForURL((u) => u.pathname !== "/sign-in", { timeout: 60_000 });
  const state = await context.storageState();
  await context.close();
  return state;
}

/**
 * Chromium, signed in as the admin, on DASHBOARD_URL or the dashboard the files share (global-setup.ts); `own`:
 * on a dashboard of the file's own, started with the environment as it is now. A file that needs its own
 * environment, fails sign-ins or reads the whole server log keeps its own: the server's sign-in limits count
 * per address and per account, and would lock the files after it out. `workspaces`: its own, with a fleet of that
 * size (0: a dashboard as a newcomer first sees it).
 */
export async function startHarness(opts: { own?: boolean; workspaces?: number } = {}): Promise<Harness> {
  // Chromium first: a missing browser fails fast, before a build.
  const browser = await launchChromium();
  // imported here: scripts import this module outside Vitest
  const { inject } = await import("vitest");
  const shared = process.env.DASHBOARD_URL || (opts.own ? "" : inject("dashboardUrl"));
  let server: Dashboard | null = null;
  try {
    const seeded = process.env.DASHBOARD_URL ? "" : inject("seededFleet");
    server = shared
      ? null
      : await startDashboard(
          opts.workspaces === undefined
            ? { workspaces: 60, days: 30, seeded: seeded || undefined }
            : { workspaces: opts.workspaces, days: 1 },
        );
  } catch (err) {
    await browser.close();
    throw err;
  }
  const base = server?.url ?? shared;
  let admin: StorageState;
  try {
    const signedIn = shared && !process.env.DASHBOARD_URL ? inject("dashboardAdmin") : null;
    admin = signedIn ?? (await signInAs(browser, base, ADMIN));
  } catch (err) {
    await browser.close();
    await server?.stop();
    throw err;
  }
  return {
    base,
    site: base.replace("//127.0.0.1:", "//localhost:"),
    browser,
    admin,
    serverLog: () => server?.log() ?? sharedLog(process.env.DASHBOARD_URL ? "" : inject("dashboardLog")),
    close: async () => {
      await browser.close().catch(() => undefined);
      await server?.stop();
    },
  };
}

const sharedLog = (file: string) => (file && fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "");

export type OpenedPage = { page: Page; context: BrowserContext; errors: string[] };

/** A context at 1440x900 on `h.site`, signed in as `who`. */
export async function signedInOnSite(h: Harness, who: { email: string; password: string }): Promise<BrowserContext> {
  return h.browser.newContext({
    viewport: { width: 1440, height: 900 },
    storageState: await signInAs(h.browser, h.site, who),
  });
}

/**
 * A fresh context at 1280x800 that records console errors and uncaught page errors, signed in as the admin
 * unless `as` names another session (null: signed out).
 */
export async function openPage(
  h: Harness,
  path: string,
  opts: { colorScheme?: "light" | "dark"; as?: StorageState | null } = {},
): Promise<OpenedPage> {
  const storageState = opts.as === undefined ? h.admin : (opts.as ?? undefined);
  const context = await h.browser.newContext({
    viewport: { width: 1280, height: 800 },
    colorScheme: opts.colorScheme ?? "light",
    storageState,
  });
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
    (sel) =>
      [...document.querySelectorAll(`${sel} svg path`)].filter((p) => (p.getAttribute("d") ?? "").length > 10).length,
    selector,
  );
}
