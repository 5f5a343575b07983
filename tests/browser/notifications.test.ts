// The Notifications page in the browser, on a dashboard of its own whose webhook is a real receiver on loopback:
// an admin sees the seeded notices at 1440 and 390 px, filters them (the filters in the URL and on the CSV link),
// sends a test that arrives signed and is in the audit log; a stopped workspace's Coder Inbox notice says it waits
// for the workspace to start; a viewer is refused the page. Screenshots go to
// screenshots/notifications-*.png.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import type { Browser, BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { openEmbedded } from "@/lib/db/open";
import { notificationOutbox, workspaces } from "@/lib/db/schema";
import type { Notice, NoticeKind } from "@/lib/notify/types";
import { startWebhookReceiver, type WebhookReceiver } from "@/tests/support/webhook-receiver";
import { launchChromium } from "./chromium";
import { ADMIN, signInAs } from "./harness";
import { seedDemo, startDashboard, type Dashboard } from "./server";

const SHOTS = "screenshots";
const SECRET = "browser-webhook-secret";
const VIEWER = { email: "notify-viewer@example.com", password: "notify-viewer-password" };
const HOUR = 3_600_000;

let browser: Browser;
let app: Dashboard;
let hook: WebhookReceiver;
let seeds = "";
let site = "";
/** The workspace whose failed notice the filters find. */
let failedWorkspace = { id: "", name: "" };

/** Outbox rows of the last days on real workspaces of the demo fleet: sent, failed (with their error), pending. */
async function seedNotices(dir: string) {
  const d = await openEmbedded(dir);
  try {
    const ws = await d.db.select().from(workspaces).limit(3);
    const row = (
      i: number,
      kind: NoticeKind,
      channel: string,
      fate: Partial<typeof notificationOutbox.$inferInsert> & { nextAttemptAt: Date },
    ) => {
      const w = ws[i];
      const created = new Date(Date.now() - (i + 1) * 5 * HOUR);
      const notice: Notice = {
        kind,
        stateKey: kind,
        level: 1,
        workspace: { id: w.id, name: w.name, owner: w.owner },
        figure: kind === "full" ? "97 % used" : kind === "filling" ? "full in 3 days" : "1 folder lost at restart",
        causes: [],
        action: { type: "grow-disk" },
        decidedAt: created.toISOString(),
      };
      return { channel, kind, workspaceId: w.id, owner: w.owner, notice, createdAt: created, ...fate };
    };
    const at = (h: number) => new Date(Date.now() - h * HOUR);
    // A pending row waits a day: the sender does not take it during the test.
    await d.db.insert(notificationOutbox).values([
      row(0, "full", "webhook", { status: "sent", attempts: 1, sentAt: at(4), nextAttemptAt: at(5) }),
      row(1, "filling", "email", { status: "pending", nextAttemptAt: new Date(Date.now() + 24 * HOUR) }),
      row(2, "lost-at-restart", "email", {
        status: "failed",
        attempts: 1,
        lastAttemptAt: at(14),
        nextAttemptAt: at(15),
        lastError: "no email address for this owner (Coder has none, or only a placeholder)",
      }),
      row(0, "full", "email", {
        status: "failed",
        attempts: 30,
        lastAttemptAt: at(1),
        nextAttemptAt: at(5),
        lastError: "451 mailbox busy",
      }),
      // The owner's Coder Inbox, for a workspace that is stopped: it waits for the workspace to start
      row(1, "filling", "coder-inbox", { status: "pending", nextAttemptAt: at(5) }),
    ]);
    await d.db
      .update(workspaces)
      .set({ coderInbox: true, coderTransition: "stop", coderStatus: "stopped" })
      .where(eq(workspaces.id, ws[1].id));
    failedWorkspace = { id: ws[2].id, name: ws[2].name };
  } finally {
    await d.close();
  }
}

async function contextFor(who: { email: string; password: string }, width: number): Promise<BrowserContext> {
  return browser.newContext({
    viewport: { width, height: 900 },
    storageState: await signInAs(browser, site, who),
  });
}

beforeAll(async () => {
  browser = await launchChromium();
  hook = await startWebhookReceiver(SECRET);
  seeds = fs.mkdtempSync(path.join(os.tmpdir(), "storage-notify-seed-"));
  const dir = path.join(seeds, "pglite");
  const seeded = inject("seededFleet");
  if (seeded) fs.cpSync(seeded, dir, { recursive: true });
  else await seedDemo(dir, 6, 2);
  await seedNotices(dir);
  app = await startDashboard({
    seeded: dir,
    logName: "browser-notifications-next.log",
    env: {
      STORAGE_NOTIFY_WEBHOOK_URL: hook.url,
      STORAGE_NOTIFY_WEBHOOK_SECRET: SECRET,
      STORAGE_NOTIFY_WEBHOOK_ALLOW_PRIVATE: "1",
    },
  });
  site = app.url.replace("//127.0.0.1:", "//localhost:");
  const admin = await contextFor(ADMIN, 1280);
  const res = await admin.request.post(`${site}/api/v1/users`, { data: { ...VIEWER, role: "viewer" } });
  expect(res.status(), await res.text()).toBe(201);
  await admin.close();
  fs.mkdirSync(SHOTS, { recursive: true });
});

afterAll(async () => {
  await browser?.close();
  await app?.stop();
  await hook?.close();
  if (seeds) fs.rmSync(seeds, { recursive: true, force: true });
});

describe("the Notifications page", () => {
  it("shows an admin the channels and the seeded notices, and filters them through the URL", async () => {
    const context = await contextFor(ADMIN, 1440);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(`${site}/notifications`, { waitUntil: "networkidle" });
    await page.waitForSelector("html[data-hydrated]", { state: "attached", timeout: 15_000 });
    await expect(page.getByRole("link", { name: "Notices", exact: true }).getAttribute("aria-current")).resolves.toBe(
      "page",
    );
    await expect(page.getByTestId("channel-webhook").textContent()).resolves.toContain("configured");
    await expect(page.getByTestId("channel-webhook").textContent()).resolves.toContain("STORAGE_NOTIFY_WEBHOOK_URL");
    await expect(page.locator("body").textContent()).resolves.not.toContain(hook.url);
    await expect(page.getByTestId("channel-email").textContent()).resolves.toContain("off");
    await expect(page.getByTestId("pending-email").textContent()).resolves.toBe("1");
    await expect(page.getByTestId("channel-coder-inbox").textContent()).resolves.toContain("configured");
    await expect(page.getByTestId("pending-coder-inbox").textContent()).resolves.toBe("1");
    await expect(page.getByTestId("test-coder-inbox").count()).resolves.toBe(0); // the dashboard cannot send it
    await expect(page.getByTestId("waiting-for-start").textContent()).resolves.toBe(
      "waiting for the workspace to start",
    );
    const rows = page.locator('[data-testid="notices-table"] tbody tr');
    await rows.first().waitFor();
    expect(await rows.count()).toBeGreaterThanOrEqual(4);
    await page.getByTestId("setting-fullPct").waitFor();
    await page.screenshot({ path: path.join(SHOTS, "notifications-1440.png"), fullPage: true });

    const filters = page.getByRole("form", { name: "Filter the notices" });
    await filters.getByLabel("Kind").selectOption("lost-at-restart");
    await filters.getByLabel("State").selectOption("failed");
    await filters.getByRole("button", { name: "Filter" }).click();
    await page.waitForURL(
      (u) => u.searchParams.get("kind") === "lost-at-restart" && u.searchParams.get("status") === "failed",
    );
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="notices-table"] tbody tr').length === 1);
    const only = rows.first();
    await expect(only.textContent()).resolves.toContain(failedWorkspace.name);
    await expect(only.textContent()).resolves.toContain("no email address");
    await expect(only.getByRole("link", { name: failedWorkspace.name }).getAttribute("href")).resolves.toBe(
      `/workspaces/${encodeURIComponent(failedWorkspace.id)}`,
    );
    const csv = await page.getByTestId("export-link").getAttribute("href");
    expect(csv).toBe("/api/v1/export/notifications.csv?kind=lost-at-restart&status=failed");
    const body = await (await context.request.get(`${site}${csv}`)).text();
    expect(body.trim().split("\r\n")).toHaveLength(2);
    expect(body).toContain(failedWorkspace.id);

    // The URL alone opens the same list.
    await page.goto(`${site}/notifications?kind=lost-at-restart&status=failed`, { waitUntil: "networkidle" });
    await expect(page.locator('[data-testid="notices-table"] tbody tr').count()).resolves.toBe(1);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("sends a test to the webhook, signed, and records it in the audit log", async () => {
    const context = await contextFor(ADMIN, 1440);
    const page = await context.newPage();
    await page.goto(`${site}/notifications`, { waitUntil: "networkidle" });
    await page.waitForSelector("html[data-hydrated]", { state: "attached", timeout: 15_000 });
    await expect(page.getByTestId("test-email").count()).resolves.toBe(0); // email is off
    await page.getByTestId("test-webhook").click();
    await page.getByTestId("test-webhook-sent").waitFor();
    const tests = hook.received.filter((r) => r.body.test === true);
    expect(tests).toHaveLength(1);
    expect(tests[0].signed).toBe(true);
    const audit = await context.request.get(`${site}/api/v1/audit?action=notifications.test_sent`);
    const { entries } = (await audit.json()) as { entries: { target: string; details: { ok: boolean } }[] };
    expect(entries.map((e) => [e.target, e.details.ok])).toEqual([["webhook", true]]);
    await context.close();
  });

  it("fits a 390 px screen", async () => {
    const context = await contextFor(ADMIN, 390);
    const page = await context.newPage();
    await page.goto(`${site}/notifications`, { waitUntil: "networkidle" });
    await page.locator('[data-testid="notices-table"]').waitFor();
    await page.screenshot({ path: path.join(SHOTS, "notifications-390.png"), fullPage: true });
    // What sticks out past the screen's right edge, named, if anything does.
    const wider = await page.evaluate(() =>
      [...document.querySelectorAll("body *")]
        .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1 && !e.closest(".table-wrap"))
        .map((e) => `${e.tagName.toLowerCase()}.${e.className}`)
        .slice(0, 5),
    );
    expect(wider).toEqual([]);
    await context.close();
  });

  it("refuses a viewer the page: no test button", async () => {
    const context = await contextFor(VIEWER, 1440);
    const page = await context.newPage();
    const answer = await page.goto(`${site}/notifications`, { waitUntil: "networkidle" });
    expect(answer?.status()).toBe(403);
    await page.getByRole("heading", { name: "Admins only" }).waitFor();
    await expect(page.getByRole("button", { name: "Send a test" }).count()).resolves.toBe(0);
    await expect(page.getByRole("link", { name: "Notices", exact: true }).count()).resolves.toBe(0);
    await context.close();
  });
});
