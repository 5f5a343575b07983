// The cleanup issue's "done means", end to end: a real home tree with Claude Code sessions (some older than 30
// days), the reporter served by the dashboard run as a child process against it, a policy made in Chromium as
// the admin (the form previews the draft, the saved policy's page its next run: the old sessions' bytes). Saving
// queues nothing; the policy's first scheduled turn is a dry run that changes nothing; the admin confirms the
// figure; only then does a scheduled turn act: the reporter claims the job, trashes exactly the old sessions and
// reports again. Then the run page, the workspace page; a turn whose preview more than doubled is held; the audit
// log. The dashboard's scheduler looks for due policies every 2 seconds, and each turn is set to the next minute
// (UTC) on the form. Screenshots go to screenshots/cleanup-e2e-*.png.
//
// The tree is aged by mtimes and then walked as kubelet walks a pod's volume with fsGroup at each start (every
// ctime now): the reporter, its clock and the dashboard are the real ones, as on a Kubernetes workspace.

import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TRASH_DIR } from "@/lib/catalog/recipes";
import { SESSION, ageTree, kubeletWalk, put, snapshot } from "@/tests/support/cleanup-fixtures";
import { REPORTER_VERSION } from "@/lib/reporter/version";
import { openPage, startHarness, type Harness, type OpenedPage } from "./harness";

const WORKSPACE = { id: "5f0c2a1e-7d3b-4c4e-9a11-2b3c4d5e6f70", name: "e2e-dev", owner: "carol", template: "docker" };
const PROJECT = ".claude/projects/-home-coder-app";
const OTHER_PROJECT = ".claude/projects/-home-coder-api";
const SHOTS = "screenshots";

/** A session: its .jsonl and its folder, with sizes in bytes, `ageDays` old. */
type Session = { rel: string; ageDays: number; jsonl: number; tool: number; subagent: number };
const sessions: Session[] = [
  // older than 30 days: what the policy removes
  { rel: `${PROJECT}/${SESSION(1)}`, ageDays: 40, jsonl: 180_000, tool: 90_000, subagent: 30_000 },
  { rel: `${PROJECT}/${SESSION(2)}`, ageDays: 75, jsonl: 420_000, tool: 250_000, subagent: 12_000 },
  { rel: `${OTHER_PROJECT}/${SESSION(3)}`, ageDays: 200, jsonl: 260_000, tool: 60_000, subagent: 45_000 },
  // fresh: they stay
  { rel: `${PROJECT}/${SESSION(4)}`, ageDays: 2, jsonl: 150_000, tool: 70_000, subagent: 8_000 },
  { rel: `${PROJECT}/${SESSION(5)}`, ageDays: 10, jsonl: 90_000, tool: 40_000, subagent: 20_000 },
  { rel: `${OTHER_PROJECT}/${SESSION(6)}`, ageDays: 14, jsonl: 300_000, tool: 0, subagent: 16_000 },
];
const old = sessions.filter((s) => s.ageDays > 30);
const fresh = sessions.filter((s) => s.ageDays <= 30);

let h: Harness;
let tmp: string;
let home: string;
let reporter: string;
let enrollmentKey = "";
/** `du -sB1` before the cleanup: the projects folder, each old session (file and folder together), their sum. */
const du = { projectsBefore: 0, old: new Map<string, number>(), oldSum: 0 };
/** File by file (kind, size, sha1) before the cleanup. */
let before: Map<string, string>;
let claudeRootBefore = 0;
let policyId = "";
let confirmedBytes = 0;
let runId = "";
let jobId = "";
let bytesActed = 0;

/** Allocated bytes of the given paths together, each inode once (`du -sB1 -c`). */
function duBytes(...rels: string[]): number {
  const out = execFileSync("du", ["-sB1", "-c", ...rels], { cwd: home, encoding: "utf8" });
  return Number(/^(\d+)\s+total$/m.exec(out)![1]);
}

/** Writes a session (file and folder) and gives every entry of it the age, folders last. */
function writeSession(s: Session, nowSec: number) {
  put(home, `${s.rel}.jsonl`, s.jsonl, s.ageDays, nowSec);
  if (s.subagent) put(home, `${s.rel}/subagents/agent-1.jsonl`, s.subagent, s.ageDays, nowSec);
  if (s.tool) put(home, `${s.rel}/tool-results/r1.txt`, s.tool, s.ageDays, nowSec);
  ageTree(path.join(home, s.rel), s.ageDays, nowSec);
}

/** One run of the reporter (the bundle the dashboard serves) as a workspace runs it. */
function runReporter(): Promise<{ code: number | null; stderr: string }> {
  const child = spawn("node", [reporter, "--verbose"], {
    env: {
      PATH: process.env.PATH,
      HOME: home,
      STORAGE_DASHBOARD_URL: h.base,
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

/** GET through the page's own session (its cookies), as the page's queries do. */
async function apiGet<T>(page: Page, url: string): Promise<T> {
  const r = await page.evaluate(async (u) => {
    const res = await fetch(u);
    return { status: res.status, body: await res.text() };
  }, url);
  expect(r.status, r.body).toBe(200);
  return JSON.parse(r.body) as T;
}

/** The exact byte count a <Bytes> element shows on hover ("1,234,567 bytes"). */
async function exactBytesOf(page: Page, selector: string): Promise<number> {
  const title = await page.locator(selector).first().getAttribute("title");
  expect(title).toMatch(/^[\d,]+ bytes$/);
  return Number(title!.replace(/\D/g, ""));
}

async function shot(p: OpenedPage, name: string) {
  fs.mkdirSync(SHOTS, { recursive: true });
  await p.page.screenshot({ path: path.join(SHOTS, `cleanup-e2e-${name}.png`), fullPage: true });
}

type RootDetail = { key: string; bytes: number };
type PolicyApi = {
  policy: {
    lastRunId: string | null;
    confirmed: { bytes: number } | null;
    held: { bytes: number; workspaces: number } | null;
    scheduleText: string;
  };
  preview: { total: { bytes: number; units: number; workspaces: number; estimate: boolean } };
  lastRun: { id: string; dryRun: boolean; bytes: number; units: number; finished: number; jobs: number } | null;
};
type RunApi = {
  run: { previewBytes: number; policyId: string | null; dryRun: boolean };
  jobs: { id: string; workspaceId: string; state: string }[];
};

/** The next whole minute (UTC) at least 20 seconds away, as the form's time input takes it ("HH:MM"). */
function nextMinute(): string {
  const d = new Date(Date.now() + 80_000);
  d.setUTCSeconds(0, 0);
  return d.toISOString().slice(11, 16);
}

/** Polls the policy until `done` says so (its scheduled turn came), at most two minutes. */
async function waitForPolicy(page: Page, done: (p: PolicyApi) => boolean): Promise<PolicyApi> {
  for (const until = Date.now() + 120_000; Date.now() < until; await new Promise((r) => setTimeout(r, 1000))) {
    const p = await apiGet<PolicyApi>(page, `/api/v1/cleanup/policies/${policyId}`);
    if (done(p)) return p;
  }
  throw new Error(`the policy's scheduled turn did not come within two minutes:\n${h.serverLog().slice(-2000)}`);
}

/** Sets the policy's daily time on its page and saves: the scheduler takes its next turn then. */
async function scheduleNextMinute(page: Page): Promise<string> {
  const at = nextMinute();
  await page.getByLabel("Time (UTC)").fill(at);
  await page
    .getByTestId("schedule-text")
    .filter({ hasText: `every day ${at} UTC` })
    .waitFor();
  await page.getByRole("button", { name: "Save policy" }).click();
  await page.locator("p.sub", { hasText: `every day ${at} UTC` }).waitFor();
  return at;
}
const claudeRoot = (d: { roots: RootDetail[] }) => d.roots.find((r) => r.key === "claude-code:data");

beforeAll(async () => {
  // the scheduler looks for due policies every 2 seconds: a turn comes within seconds of its minute
  process.env.STORAGE_CLEANUP_SCHEDULER_INTERVAL = "2";
  // its own dashboard: that interval, and policies that no other file's runs or confirmations touch; no demo
  // fleet (this file runs beside the others, in a process without their shared one: see vitest.config.ts)
  h = await startHarness({ own: true, workspaces: 0 });
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "cleanup-e2e-")));
  home = path.join(tmp, "home");
  fs.mkdirSync(home);
  const nowSec = Math.floor(Date.now() / 1000);
  for (const s of sessions) writeSession(s, nowSec);
  put(home, ".claude/settings.json", 300, 1, nowSec);
  put(home, ".claude/history.jsonl", 5000, 1, nowSec);
  kubeletWalk(home);
  du.projectsBefore = duBytes(".claude/projects");
  for (const s of old) du.old.set(s.rel, duBytes(`${s.rel}.jsonl`, s.rel));
  du.oldSum = duBytes(...old.flatMap((s) => [`${s.rel}.jsonl`, s.rel]));
  before = snapshot(path.join(home, ".claude/projects"));

  // the bundle the dashboard serves to workspaces
  const res = await fetch(`${h.base}/reporter.mjs`);
  expect(res.status).toBe(200);
  reporter = path.join(tmp, "reporter.mjs");
  fs.writeFileSync(reporter, Buffer.from(await res.arrayBuffer()));
});

afterAll(async () => {
  await h?.close();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

describe("cleanup end to end: real tree, built reporter, policy in the UI", () => {
  it("the workspace enrolls with the key the Connect page shows the admin and reports its Claude sessions", async () => {
    const connect = await openPage(h, "/connect");
    enrollmentKey = ((await connect.page.getByTestId("enrollment-key").textContent()) ?? "").trim();
    expect(enrollmentKey.length).toBeGreaterThan(10);
    await connect.context.close();

    const r = await runReporter();
    expect(r.code, r.stderr).toBe(0);

    const ws = await openPage(h, `/workspaces/${WORKSPACE.id}`);
    const detail = await apiGet<{ roots: RootDetail[]; reports: { reporterVersion: string }[] }>(
      ws.page,
      `/api/v1/workspaces/${WORKSPACE.id}`,
    );
    // the report names the reporter that sent it: the one this dashboard serves
    expect(detail.reports[0].reporterVersion).toBe(REPORTER_VERSION);
    const root = claudeRoot(detail);
    expect(root, JSON.stringify(detail.roots.map((x) => x.key))).toBeDefined();
    claudeRootBefore = root!.bytes;
    // ~/.claude is the projects plus the two small files
    expect(claudeRootBefore).toBeGreaterThanOrEqual(du.projectsBefore);
    await ws.page.locator('[data-testid="roots-table"] td[title="claude-code:data"]').waitFor();
    expect(ws.errors).toEqual([]);
    await ws.context.close();
  });

  it("an admin makes a policy in the UI; saving queues nothing; its first scheduled turn is a dry run", async () => {
    const p = await openPage(h, "/cleanup/policies/new");
    const { page } = p;
    // the recipe first: choosing one resets the other fields to its defaults
    await page.getByLabel("Recipe").selectOption("claude-code-sessions");
    await page.getByLabel("Policy name").fill("Claude sessions older than 30 days (e2e)");
    await page.getByLabel("Older than days").fill("30");
    await page.getByLabel("Scope", { exact: true }).selectOption("workspaceIds");
    await page.getByLabel("Scope values").fill(WORKSPACE.id);
    await page.getByLabel("Action").selectOption("trash");
    // the schedule in words, in UTC
    await page.getByTestId("schedule-text").filter({ hasText: "every Monday 03:00 UTC" }).waitFor();
    await page.getByLabel("Schedule").selectOption("daily");
    const at = nextMinute();
    await page.getByLabel("Time (UTC)").fill(at);
    await page
      .getByTestId("schedule-text")
      .filter({ hasText: `every day ${at} UTC` })
      .waitFor();
    // the form previews the draft before it is saved
    const draftPreview = page.getByTestId("policy-preview").getByTestId("preview-total");
    await draftPreview.filter({ hasText: "in 3 units from 1 workspace." }).waitFor();
    const previewed = await exactBytesOf(
      page,
      '[data-testid="policy-preview"] [data-testid="preview-total"] strong span',
    );
    await shot(p, "policy-new");
    await page.getByRole("button", { name: "Save policy" }).click();
    await page.waitForURL((u) => /^\/cleanup\/policies\/[0-9a-f-]{36}$/.test(u.pathname));
    policyId = new URL(page.url()).pathname.split("/").pop()!;

    await page.getByTestId("preview-total").waitFor();
    const shown = await exactBytesOf(page, '[data-testid="preview-total"] strong span');
    const saved = await apiGet<PolicyApi>(page, `/api/v1/cleanup/policies/${policyId}`);
    expect(saved.preview.total).toMatchObject({ units: old.length, workspaces: 1, bytes: shown });
    expect(previewed).toBe(shown);
    // within a few percent of what du says the old sessions take (exact here: 30 days is an age step's bound)
    expect(Math.abs(shown - du.oldSum) / du.oldSum).toBeLessThan(0.03);
    // saved: nothing queued, not confirmed
    expect(saved.policy).toMatchObject({
      lastRunId: null,
      confirmed: null,
      held: null,
      scheduleText: `every day ${at} UTC`,
    });
    await page.locator('[data-testid="policy-status"] [data-state="unconfirmed"]').waitFor();

    // its turn comes at its minute: a dry run
    const turn = await waitForPolicy(page, (x) => x.policy.lastRunId !== null);
    const dry = await apiGet<RunApi>(page, `/api/v1/cleanup/runs/${turn.policy.lastRunId}`);
    expect(dry.run).toMatchObject({ dryRun: true, policyId, previewBytes: shown });
    expect(dry.jobs).toHaveLength(1);
    const r = await runReporter();
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/\(cleanup, dry run\): done, 3 units, \d+ bytes, 0 skipped, 0 errors/);
    expect(snapshot(path.join(home, ".claude/projects"))).toEqual(before); // a dry run changes nothing
    // the policy's page says what its dry run would have freed: the old sessions, as du counts them
    const afterDry = await waitForPolicy(page, (x) => x.lastRun?.finished === 1);
    expect(afterDry.lastRun).toMatchObject({ dryRun: true, bytes: du.oldSum, units: 3 });
    await page.reload();
    await page.getByTestId("last-run").filter({ hasText: "(dry run): would free" }).waitFor();
    await shot(p, "policy-before-confirmation");
    expect(p.errors).toEqual([]);
    await p.context.close();
  });

  it("the admin confirms the figure; only the next scheduled turn after it acts, and queues one job", async () => {
    const p = await openPage(h, `/cleanup/policies/${policyId}`);
    const { page } = p;
    const { preview } = await apiGet<PolicyApi>(page, `/api/v1/cleanup/policies/${policyId}`);
    confirmedBytes = preview.total.bytes;
    const confirm = page.getByRole("button", { name: /^Confirm: trash .+ from 1 workspace, every day \d\d:\d\d UTC$/ });
    await confirm.click();
    await page.locator('[data-testid="policy-status"] [data-state="confirmed"]').waitFor();
    const confirmed = await apiGet<PolicyApi>(page, `/api/v1/cleanup/policies/${policyId}`);
    expect(confirmed.policy.confirmed).toMatchObject({ bytes: confirmedBytes });
    await shot(p, "policy-confirmed");

    const dryRunId = confirmed.policy.lastRunId;
    await scheduleNextMinute(page); // a new time keeps the confirmation: it changes when, not what
    expect((await apiGet<PolicyApi>(page, `/api/v1/cleanup/policies/${policyId}`)).policy.confirmed).not.toBeNull();
    const turn = await waitForPolicy(page, (x) => x.policy.lastRunId !== dryRunId);
    runId = turn.policy.lastRunId!;
    const run = await apiGet<RunApi>(page, `/api/v1/cleanup/runs/${runId}`);
    expect(run.run).toMatchObject({ previewBytes: confirmedBytes, policyId, dryRun: false });
    expect(run.jobs).toHaveLength(1);
    expect(run.jobs[0]).toMatchObject({ workspaceId: WORKSPACE.id, state: "queued" });
    jobId = run.jobs[0].id;
    expect(p.errors).toEqual([]);
    await p.context.close();
  });

  it("the reporter claims the job, trashes exactly the old sessions, posts the result and reports again", async () => {
    const r = await runReporter();
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(new RegExp(`job ${jobId} \\(cleanup\\): done, 3 units, \\d+ bytes, 0 skipped, 0 errors`));

    const after = snapshot(path.join(home, ".claude/projects"));
    const trash = path.join(home, TRASH_DIR, jobId);
    const inTrash = snapshot(trash);
    for (const [rel, what] of before) {
      const session = sessions.find((s) => `.claude/projects/${rel}`.startsWith(s.rel));
      if (session && session.ageDays > 30) {
        // gone from its place, whole and unchanged in the job's trash folder
        expect(after.has(rel), rel).toBe(false);
        expect(inTrash.get(`.claude/projects/${rel}`), rel).toBe(what);
      } else {
        expect(after.get(rel), rel).toBe(what);
      }
    }
    expect([...after.keys()].filter((k) => !before.has(k))).toEqual([]);
    for (const s of fresh) expect(fs.existsSync(path.join(home, `${s.rel}.jsonl`))).toBe(true);
    // the projects lost what du said the old sessions took (their folders keep their own size on ext4 and tmpfs)
    expect(du.projectsBefore - duBytes(".claude/projects")).toBe(du.oldSum);
    const manifest = JSON.parse(fs.readFileSync(path.join(trash, "manifest.json"), "utf8")) as {
      complete: boolean;
      units: { path: string }[];
    };
    expect(manifest.complete).toBe(true);
    expect(manifest.units.map((u) => u.path).sort()).toEqual(old.map((s) => `${s.rel}.jsonl`).sort());
  });

  it("the run page shows the job done with its units and bytes", async () => {
    const p = await openPage(h, `/cleanup/runs/${runId}`);
    const { page } = p;
    const row = page.locator('[data-testid="run-jobs"] tbody tr[data-state="done"]');
    await row.waitFor();
    const run = await apiGet<{
      run: { status: string; progress: { unitsActed: number; bytesFreed: number } };
      jobs: { bytesActed: number; unitsActed: number }[];
    }>(page, `/api/v1/cleanup/runs/${runId}`);
    bytesActed = run.jobs[0].bytesActed;
    // the units' allocated bytes as the reporter measured them: du's figure
    expect(bytesActed).toBe(du.oldSum);
    expect(run.jobs[0].unitsActed).toBe(3);
    expect(run.run.progress).toMatchObject({ unitsActed: 3, bytesFreed: bytesActed });
    expect(run.run.status).toBe("finished");
    expect(await exactBytesOf(page, '[data-testid="run-jobs"] tbody tr[data-state="done"] td:nth-child(4) span')).toBe(
      bytesActed,
    );
    await expect(page.getByTestId("run-progress").textContent()).resolves.toMatch(/Units acted3preview 3/);
    await row.getByRole("button", { name: "Details" }).click();
    const result = page.getByTestId("job-result");
    await expect(result.locator("div").first().textContent()).resolves.toMatch(
      /^done: 3 units, [\d.]+ [KM]iB, 0 skipped, 0 errors/,
    );
    await result.getByText("Units acted (3)").click();
    for (const s of old) await result.getByText(`${s.rel}.jsonl`, { exact: true }).waitFor();
    await expect(result.getByTestId("trash-folder").textContent()).resolves.toBe(
      `Moved to ~/${TRASH_DIR}/${jobId}/ in the workspace, each under its own path.`,
    );
    // each unit's own path is readable, not cut to ".cla…" by the trash path beside it
    for (const s of old) {
      const item = result.locator("li", { hasText: `${s.rel}.jsonl` });
      const [shown, full] = await item.locator(".grow").evaluate((e) => [e.clientWidth, e.scrollWidth]);
      expect(shown, s.rel).toBeGreaterThanOrEqual(full);
      await expect(item.locator(".muted").getAttribute("title")).resolves.toBe(
        `~/${TRASH_DIR}/${jobId}/${s.rel}.jsonl`,
      );
    }
    await expect(page.getByRole("button", { name: "Restore" }).count()).resolves.toBe(1);
    await shot(p, "run");
    expect(p.errors).toEqual([]);
    await p.context.close();
  });

  it("the workspace page shows the smaller usage of claude-code:data from the fresh report", async () => {
    const p = await openPage(h, `/workspaces/${WORKSPACE.id}`);
    const { page } = p;
    const detail = await apiGet<{ roots: RootDetail[] }>(page, `/api/v1/workspaces/${WORKSPACE.id}`);
    const now = claudeRoot(detail)!.bytes;
    expect(claudeRootBefore - now).toBe(bytesActed);
    const cell = '[data-testid="roots-table"] tr:has(td[title="claude-code:data"]) td:nth-child(4) span';
    expect(await exactBytesOf(page, cell)).toBe(now);
    await shot(p, "workspace");
    expect(p.errors).toEqual([]);
    await p.context.close();
  });

  it("a scheduled turn whose preview more than doubled is held, shown, and queues nothing", async () => {
    // new old sessions, three times what was confirmed, reported by the workspace
    const nowSec = Math.floor(Date.now() / 1000);
    for (let i = 0; i < 3; i++) {
      writeSession(
        { rel: `${PROJECT}/${SESSION(20 + i)}`, ageDays: 45, jsonl: confirmedBytes, tool: 4096, subagent: 0 },
        nowSec,
      );
    }
    kubeletWalk(home);
    const r = await runReporter();
    expect(r.code, r.stderr).toBe(0);
    const p = await openPage(h, `/cleanup/policies/${policyId}`);
    const { page } = p;
    await scheduleNextMinute(page);
    const held = await waitForPolicy(page, (x) => x.policy.held !== null);
    expect(held.policy.held!.bytes).toBeGreaterThan(2 * confirmedBytes);
    expect(held.policy.lastRunId).toBe(runId); // no run was queued
    await page.reload();
    await page.locator('[data-testid="policy-status"] [data-state="held"]').waitFor();
    await page.getByRole("button", { name: /^Confirm: trash / }).waitFor(); // a new figure to confirm
    await shot(p, "policy-held");
    await page.goto(`${h.base}/cleanup`);
    await page.getByTestId("policy-held").filter({ hasText: "is held" }).waitFor();
    await shot(p, "cleanup-held");
    expect(p.errors).toEqual([]);
    await p.context.close();
  });

  it("the audit log holds every step: policy created and confirmed, run created, job claimed, job result, hold", async () => {
    const p = await openPage(h, "/audit");
    const { page } = p;
    type Entry = {
      action: string;
      target: string | null;
      actorType: string;
      actorId: string | null;
      details: Record<string, unknown> | null;
    };
    const { entries } = await apiGet<{ entries: Entry[] }>(page, "/api/v1/audit?limit=500");
    const find = (action: string, pred: (e: Entry) => boolean = () => true) =>
      entries.find((e) => e.action === action && pred(e));
    expect(find("enrollment_key.viewed")).toBeDefined();
    expect(find("cleanup.policy_created", (e) => e.target === policyId)).toMatchObject({
      actorType: "user",
      details: {
        recipe: "claude-code-sessions",
        params: { olderThanDays: 30 },
        scope: { workspaceIds: [WORKSPACE.id] },
        action: "trash",
      },
    });
    expect(find("cleanup.policy_confirmed", (e) => e.target === policyId)).toMatchObject({
      actorType: "user",
      details: { bytes: confirmedBytes, workspaces: 1 },
    });
    // started by the policy, and only after the confirmation
    expect(find("cleanup.run_created", (e) => e.target === runId)).toMatchObject({
      actorType: "system",
      details: { policyId, jobs: 1, dryRun: false },
    });
    expect(find("cleanup.policy_held", (e) => e.target === policyId)).toMatchObject({
      actorType: "system",
      details: { confirmed: { bytes: confirmedBytes }, factor: 2 },
    });
    const claimed = find(
      "cleanup.jobs_claimed",
      (e) => e.target === WORKSPACE.id && JSON.stringify(e.details).includes(jobId),
    );
    expect(claimed).toMatchObject({ actorType: "workspace", actorId: WORKSPACE.id });
    expect(find("cleanup.job_result", (e) => e.target === jobId)).toMatchObject({
      actorType: "workspace",
      details: { runId, status: "done", unitsActed: 3, bytesActed },
    });
    // and the page lists them
    for (const action of [
      "cleanup.policy_created",
      "cleanup.policy_confirmed",
      "cleanup.run_created",
      "cleanup.policy_held",
      "cleanup.job_result",
    ]) {
      await page.getByTestId("audit-table").getByText(action, { exact: true }).first().waitFor();
    }
    await shot(p, "audit");
    // the Action filter offers the cleanup actions
    await page.getByLabel("Action").selectOption("cleanup.job_result");
    await page.getByRole("button", { name: "Filter" }).click();
    await page.waitForFunction(() => {
      const cells = [...document.querySelectorAll('[data-testid="audit-table"] tbody td:nth-child(3)')];
      // the dry run's result and the real run's
      return cells.length === 2 && cells.every((c) => c.textContent === "cleanup.job_result");
    });
    expect(p.errors).toEqual([]);
    await p.context.close();
  });
});
