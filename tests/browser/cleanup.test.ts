// Cleanup in the browser: an admin goes from a finding to a confirmed run; a viewer sees no action.
import type { BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN, startHarness, type Harness } from "./harness";

let h: Harness;
const VIEWER = { email: "cleanup-viewer@example.com", password: "cleanup-viewer-password" };
let runPath = "";

async function api(path: string, body: unknown, cookie?: string): Promise<Response> {
  return fetch(`${h.base}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(cookie ? { cookie } : {}) },
    body: JSON.stringify(body),
  });
}

/** Signs in through Better Auth's endpoint and returns the session cookies. */
async function signIn(who: { email: string; password: string }): Promise<{ name: string; value: string }[]> {
  const res = await api("/api/auth/sign-in/email", who);
  expect(res.status, await res.clone().text()).toBe(200);
  return res.headers
    .getSetCookie()
    .map((c) => {
      const [pair] = c.split(";");
      const i = pair.indexOf("=");
      return { name: pair.slice(0, i), value: pair.slice(i + 1) };
    })
    .filter((c) => c.value);
}

/** A browser context signed in through the sign-in page, as a person would. */
async function contextFor(who: { email: string; password: string }): Promise<BrowserContext> {
  const context = await h.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${h.site}/sign-in`, { waitUntil: "networkidle" });
  await page.waitForSelector("html[data-hydrated]", { state: "attached", timeout: 15_000 });
  await page.getByLabel("Email").fill(who.email);
  await page.getByLabel("Password").fill(who.password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await page.waitForURL((u) => u.pathname !== "/sign-in");
  await page.close();
  return context;
}

async function open(context: BrowserContext, path: string) {
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(`${h.site}${path}`, { waitUntil: "networkidle" });
  await page.waitForSelector("html[data-hydrated]", { state: "attached", timeout: 15_000 });
  return { page, errors };
}

beforeAll(async () => {
  h = await startHarness();
  // The demo's admin creates a viewer.
  const cookie = (await signIn(ADMIN)).map((c) => `${c.name}=${c.value}`).join("; ");
  const res = await api("/api/v1/users", { ...VIEWER, role: "viewer" }, cookie);
  expect(res.status, await res.clone().text()).toBe(201);
});

afterAll(async () => {
  await h?.close();
});

describe("cleanup", () => {
  it("takes an admin from a finding's 'Clean these up' through the preview to a run with queued jobs", async () => {
    const context = await contextFor(ADMIN);
    const { page, errors } = await open(context, "/findings?rule=orphaned-script-data");
    const link = page.getByTestId("cleanup-link").first();
    await expect(link.textContent()).resolves.toBe("Clean these up");
    await link.click();
    await page.waitForURL(
      (u) => u.pathname === "/cleanup/new" && u.searchParams.get("recipe") === "orphaned-script-data",
    );
    await expect(page.getByLabel("Scope", { exact: true }).inputValue()).resolves.toBe("workspaceIds");
    await page.getByTestId("preview-total").waitFor();
    const confirm = page.getByTestId("confirm-run");
    await page.waitForFunction(() => {
      const b = document.querySelector<HTMLButtonElement>('[data-testid="confirm-run"]');
      return b && !b.disabled;
    });
    const label = (await confirm.textContent()) ?? "";
    expect(label).toMatch(/^Delete [\d.]+ [KMG]?i?B from 1 workspace$/);
    const total = (await page.getByTestId("preview-total").locator("strong").textContent())?.trim();
    expect(label).toContain(total);
    await confirm.click();
    // The second step states the same figure; only its own button sends the run.
    const dialog = page.getByTestId("confirm-dialog");
    await expect(dialog.getByRole("heading").textContent()).resolves.toBe(`${label}?`);
    await dialog.getByTestId("confirm-run-final").click();
    await page.waitForURL((u) => /^\/cleanup\/runs\/[0-9a-f-]{36}$/.test(u.pathname));
    runPath = new URL(page.url()).pathname;
    await page.locator('[data-testid="run-jobs"] tbody tr[data-state="queued"]').first().waitFor();
    await expect(page.getByRole("button", { name: "Cancel run" }).count()).resolves.toBe(1);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("shows a viewer runs and results but no action", async () => {
    const context = await contextFor(VIEWER);
    const findings = await open(context, "/findings?rule=orphaned-script-data");
    await findings.page.getByTestId("finding").first().waitFor();
    await expect(findings.page.getByTestId("cleanup-link").count()).resolves.toBe(0);

    const cleanup = await open(context, "/cleanup");
    await cleanup.page.getByTestId("runs").waitFor();
    await cleanup.page.getByTestId("recipes").waitFor();
    await expect(cleanup.page.getByRole("link", { name: /New (run|cleanup|policy)/ }).count()).resolves.toBe(0);

    const run = await open(context, runPath);
    await run.page.getByTestId("run-jobs").waitFor();
    await expect(run.page.getByRole("button", { name: /Cancel|Restore/ }).count()).resolves.toBe(0);

    const form = await context.newPage();
    const answer = await form.goto(`${h.site}/cleanup/new?recipe=codex-rollouts`, { waitUntil: "networkidle" });
    expect(answer?.status()).toBe(403); // the new-run form is the admins' page
    await form.getByRole("heading", { name: "Admins only" }).waitFor();
    expect([...findings.errors, ...cleanup.errors, ...run.errors]).toEqual([]);
    await context.close();
  });
});
