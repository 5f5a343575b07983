// A member's own path in Chromium: signed in with Coder (the stand-in), their home is My storage; they preview
// the Claude Code sessions recipe on their workspace, run it (no admin), the real reporter (the bundle the
// dashboard serves) trashes exactly the old sessions, and the member restores them from the trash. Another's
// workspace answers 404 in the page and the API. Screenshots at 1440 and 390 px go to screenshots/my-storage-*.

import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SESSION, ageTree, kubeletWalk, put } from "@/tests/support/cleanup-fixtures";
import type { CoderOAuth2 } from "../support/coder-standin/oauth2";
import { startCoderStandIn, type CoderStandIn } from "../support/coder-standin/server";
import { launchChromium } from "./chromium";
import { coderApp, coderMember, signInWithCoder } from "./coder-app";
import { ADMIN, signInAs } from "./harness";
import { startDashboard, type Dashboard } from "./server";

const OWNER = "dana";
const WORKSPACE = { id: "7a1c2b3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d", name: "dana-dev", owner: OWNER, template: "docker" };
const PROJECT = ".claude/projects/-home-coder-app";
const SHOTS = "screenshots";
/** Two sessions past the recipe's 30 days (what the run moves), one fresh (it stays). */
const SESSIONS = [
  { rel: `${PROJECT}/${SESSION(1)}`, ageDays: 45, bytes: 300_000 },
  { rel: `${PROJECT}/${SESSION(2)}`, ageDays: 90, bytes: 500_000 },
  { rel: `${PROJECT}/${SESSION(3)}`, ageDays: 3, bytes: 200_000 },
];
const OLD = SESSIONS.filter((s) => s.ageDays > 30);

let browser: Browser;
let app: Dashboard;
let coder: CoderStandIn;
let oauth: CoderOAuth2;
let tmp = "";
let home = "";
let reporter = "";
let enrollmentKey = "";
let page: Page;
/** A demo workspace someone else owns. */
let otherId = "";

function runReporter(): Promise<{ code: number | null; stderr: string }> {
  const child = spawn("node", [reporter, "--verbose"], {
    env: {
      PATH: process.env.PATH,
      HOME: home,
      STORAGE_DASHBOARD_URL: app.url,
      STORAGE_ENROLLMENT_KEY: enrollmentKey,
      CODER_WORKSPACE_ID: WORKSPACE.id,
      CODER_WORKSPACE_NAME: WORKSPACE.name,
      CODER_WORKSPACE_OWNER_NAME: WORKSPACE.owner,
      CODER_WORKSPACE_TEMPLATE_NAME: WORKSPACE.template,
    } as unknown as NodeJS.ProcessEnv,
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr!.on("data", (d: Buffer) => (stderr += d));
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, stderr })));
}

const exists = (rel: string) => fs.existsSync(path.join(home, rel));

async function shot(name: string) {
  fs.mkdirSync(SHOTS, { recursive: true });
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: path.join(SHOTS, `my-storage-${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}

beforeAll(async () => {
  browser = await launchChromium();
  const site = await coderApp("6b5c4d3e-2f1a-4b0c-9d8e-7f6a5b4c3d2e", [
    coderMember("00000000-0000-0000-0000-0000000d4a4a", OWNER),
  ]);
  oauth = site.oauth;
  coder = await startCoderStandIn([oauth.handler]);
  app = await startDashboard({
    workspaces: 3,
    days: 2,
    logName: "browser-my-storage-next.log",
    port: site.port,
    env: site.env(coder.url),
  });
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "my-storage-")));
  home = path.join(tmp, "home");
  fs.mkdirSync(home);
  const nowSec = Math.floor(Date.now() / 1000);
  for (const s of SESSIONS) {
    put(home, `${s.rel}.jsonl`, s.bytes, s.ageDays, nowSec);
    put(home, `${s.rel}/tool-results/r1.txt`, s.bytes / 2, s.ageDays, nowSec);
    ageTree(path.join(home, s.rel), s.ageDays, nowSec);
  }
  kubeletWalk(home);
  const res = await fetch(`${app.url}/reporter.mjs`);
  expect(res.status).toBe(200);
  reporter = path.join(tmp, "reporter.mjs");
  fs.writeFileSync(reporter, Buffer.from(await res.arrayBuffer()));
  // The admin reads the fleet's enrollment key on the Connect page; the workspace enrolls and reports.
  const admin = await browser.newContext({ storageState: await signInAs(browser, app.url, ADMIN) });
  const connect = await admin.newPage();
  await connect.goto(`${app.url}/connect`, { waitUntil: "networkidle" });
  enrollmentKey = ((await connect.getByTestId("enrollment-key").textContent()) ?? "").trim();
  const fleet = (await (await connect.request.get(`${app.url}/api/v1/workspaces`)).json()) as {
    rows: { id: string; owner: string }[];
  };
  otherId = fleet.rows.find((w) => w.owner !== OWNER)!.id;
  await admin.close();
  const r = await runReporter();
  expect(r.code, r.stderr).toBe(0);
});

afterAll(async () => {
  await browser?.close();
  await app?.stop();
  await coder?.close();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

describe("My storage", () => {
  it("is a member's home: their workspace, what fills it and what they can free", async () => {
    oauth.signInAs(OWNER);
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(`${app.url}/`, { waitUntil: "networkidle" });
    await page.waitForSelector("html[data-hydrated]", { state: "attached" });
    await signInWithCoder(page, app.url, coder.url);
    await page.getByRole("heading", { name: "My storage" }).waitFor();
    const card = page.getByTestId(`my-workspace-${WORKSPACE.id}`);
    await card.waitFor();
    await card.getByTestId("offer-claude-code-sessions").waitFor();
    await shot("home");
    expect(errors).toEqual([]);
  });

  it("previews, then runs to the trash without an admin; the real reporter moves exactly the old sessions", async () => {
    const offer = page.getByTestId("offer-claude-code-sessions");
    await offer.getByRole("button", { name: "Preview" }).click();
    const run = offer.getByRole("button", { name: /^Move .+ to the trash$/ });
    await run.waitFor();
    await shot("preview");
    await run.click();
    await offer.getByTestId("offer-queued").waitFor();
    const r = await runReporter();
    expect(r.code, r.stderr).toBe(0);
    for (const s of OLD) expect(exists(`${s.rel}.jsonl`), s.rel).toBe(false);
    expect(exists(`${SESSIONS[2].rel}.jsonl`)).toBe(true);
    await page.reload({ waitUntil: "networkidle" });
    await page.getByTestId("trash-entry").first().waitFor();
    await shot("trash");
  });

  it("restores the trashed sessions from My storage", async () => {
    const entry = page.getByTestId("trash-entry").first();
    await entry.getByRole("button", { name: "Restore" }).click();
    await entry.getByRole("button", { name: /^Restore (queued|running|done)/ }).waitFor();
    const r = await runReporter();
    expect(r.code, r.stderr).toBe(0);
    for (const s of OLD) expect(exists(`${s.rel}.jsonl`), s.rel).toBe(true);
  });

  it("turns an optional notice off for one channel, kept across a reload; a full volume's stays on", async () => {
    await page.goto(`${app.url}/me`, { waitUntil: "networkidle" });
    const switches = page.getByTestId("notice-switches");
    const filling = switches.locator('input[name="email-filling"]');
    await expect(filling.isChecked()).resolves.toBe(true);
    const saved = page.waitForResponse(
      (r) => r.url().endsWith("/api/v1/me/notification-preferences") && r.request().method() === "PUT",
    );
    await filling.click();
    expect((await saved).status()).toBe(200);
    await page.reload({ waitUntil: "networkidle" });
    await expect(page.getByTestId("notice-switches").locator('input[name="email-filling"]').isChecked()).resolves.toBe(
      false,
    );
    await expect(
      page.getByTestId("notice-switches").locator('input[name="webhook-filling"]').isChecked(),
    ).resolves.toBe(true);
    await expect(
      page
        .getByTestId("notice-switches")
        .getByText(/Always sent: full and cleanup ahead/)
        .count(),
    ).resolves.toBe(1);
    const prefs = await (await page.request.get(`${app.url}/api/v1/me/notification-preferences`)).json();
    expect(prefs.channels.email).toEqual({ filling: false, "growing-file": true, "lost-at-restart": true });
    await shot("notice-switches");
  });

  it("answers 404 for another's workspace, in the page and the API", async () => {
    const fleet = await (await page.request.get(`${app.url}/api/v1/me/storage`)).json();
    expect(fleet.workspaces.map((w: { id: string }) => w.id)).toEqual([WORKSPACE.id]);
    const other = otherId;
    const res = await page.goto(`${app.url}/workspaces/${other}`, { waitUntil: "networkidle" });
    expect(res?.status()).toBe(404);
    await page.getByRole("heading", { name: "Not found" }).waitFor();
    const preview = await page.request.post(`${app.url}/api/v1/me/cleanup/preview`, {
      data: { workspaceId: other, recipe: "claude-code-sessions" },
    });
    expect(preview.status()).toBe(404);
    const keep = await page.request.post(`${app.url}/api/v1/me/keeps`, {
      data: { workspaceId: other, path: ".claude", days: 3 },
    });
    expect(keep.status()).toBe(404);
  });
});
