// End to end: the built reporter bundle, run as a child process, claims cleanup jobs from a small node:http
// server that implements enrollment, reports and the job endpoints (claim, progress, result; results are
// checked against the contract's zod schema), runs them and sends a fresh report. A run killed with SIGKILL in
// the middle of a job leaves every unit whole: in place, or gone from its root.
//
// Each home is aged by its mtimes and then walked as kubelet walks a pod's volume with fsGroup (every ctime
// now), so the reporter meets the tree a Kubernetes workspace has after a start, with its real clock.

import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { CLEANUP_LOG, TRASH_DIR } from "@/lib/catalog/recipes";
import { jobResult, type ClaimedJob } from "@/lib/cleanup/protocol";
import { report as reportSchema, type Report } from "@/lib/report-format/schema";
import { SESSION, ageTree, buildCleanupHome, job, kubeletWalk, put, snapshot } from "@/tests/support/cleanup-fixtures";
// @ts-expect-error plain .mjs build script
import { buildReporter } from "@/scripts/build-reporter.mjs";

let tmp: string;
let bundle: string;
let home: string;
let server: http.Server;
let port = 0;

type Mode = { progress: "ok" | "block" | "cancel"; result: "ok" | "stale" };
let mode: Mode;
let queued: ClaimedJob[] = [];
let reports: Report[] = [];
let results: { id: string; body: unknown }[] = [];
let progressCalls = 0;

function json(res: http.ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { "Content-Type": "application/json" });
  res.end(JSON.stringify(body));
}

async function handle(req: http.IncomingMessage, res: http.ServerResponse) {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  let body = Buffer.concat(chunks);
  if (req.headers["content-encoding"] === "gzip") body = zlib.gunzipSync(body);
  const url = req.url ?? "";
  if (url === "/api/v1/enroll") return json(res, 200, { workspaceId: "w1", token: "tok" });
  if (req.headers.authorization !== "Bearer tok")
    return json(res, 401, { error: { code: "unauthorized", message: "no" } });
  if (url === "/api/v1/reports") {
    const parsed = reportSchema.safeParse(JSON.parse(body.toString()));
    if (!parsed.success)
      return json(res, 422, { error: { code: "invalid", message: JSON.stringify(parsed.error.issues).slice(0, 500) } });
    reports.push(JSON.parse(body.toString()));
    return json(res, 200, { reportId: "r", status: "stored", newest: true });
  }
  if (url === "/api/v1/jobs/claim") {
    const jobs = queued;
    queued = [];
    return json(res, 200, { jobs });
  }
  const m = /^\/api\/v1\/jobs\/([^/]+)\/(progress|result)$/.exec(url);
  if (m && m[2] === "progress") {
    progressCalls++;
    if (mode.progress === "block") return; // never answers: the reporter waits at a unit boundary
    return json(res, 200, {
      leaseExpiresAt: new Date(Date.now() + 600_000).toISOString(),
      cancelled: mode.progress === "cancel",
    });
  }
  if (m && m[2] === "result") {
    const parsed = jobResult.safeParse(JSON.parse(body.toString()));
    if (!parsed.success)
      return json(res, 422, { error: { code: "invalid", message: parsed.error.message.slice(0, 500) } });
    if (mode.result === "stale") return json(res, 409, { error: { code: "stale_lease", message: "lease is stale" } });
    results.push({ id: m[1], body: parsed.data });
    return json(res, 200, { ok: true });
  }
  json(res, 404, { error: { code: "not_found", message: url } });
}

function start(): ChildProcess {
  return spawn("node", [bundle], {
    env: {
      PATH: process.env.PATH,
      HOME: home,
      STORAGE_DASHBOARD_URL: `http://127.0.0.1:${port}`,
      STORAGE_ENROLLMENT_KEY: "key",
      CODER_WORKSPACE_ID: "w1",
      CODER_WORKSPACE_NAME: "dev",
      CODER_WORKSPACE_OWNER_NAME: "alice",
      CODER_SCRIPT_DATA_DIR: path.join(home, ".coder/coder-script-data/current"),
    } as unknown as NodeJS.ProcessEnv,
    stdio: ["ignore", "ignore", "pipe"],
  });
}

function run(): Promise<{ code: number | null; stderr: string }> {
  const child = start();
  let stderr = "";
  child.stderr!.on("data", (d: Buffer) => (stderr += d));
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, stderr })));
}

const nowSec = () => Math.floor(Date.now() / 1000);
const P = ".claude/projects/-work-app";
const sessions = (r: Report) => r.roots.find((x) => x.key === "claude-code:data")!.recipes!["claude-code-sessions"]!;

beforeAll(async () => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "reporter-cleanup-e2e-")));
  bundle = await buildReporter(path.join(tmp, "reporter.mjs"));
  server = http.createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as { port: number }).port;
}, 120_000);

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  fs.rmSync(tmp, { recursive: true, force: true });
});

beforeEach(() => {
  home = path.join(tmp, `home-${Math.random().toString(36).slice(2)}`);
  fs.mkdirSync(home);
  buildCleanupHome(home, path.join(home + "-outside"), nowSec());
  kubeletWalk(home);
  mode = { progress: "ok", result: "ok" };
  queued = [];
  reports = [];
  results = [];
  progressCalls = 0;
});

describe("cleanup jobs through the built reporter", () => {
  it("claims a job, trashes, posts a valid result and a fresh report; a restore job brings the units back", async () => {
    const before = snapshot(path.join(home, ".claude"));
    const j = job({ recipe: "claude-code-sessions", action: "trash", params: { olderThanDays: 30 } });
    queued = [j];
    const r = await run();
    expect(r.code, r.stderr).toBe(0);
    expect(results).toHaveLength(1);
    const res = results[0].body as ReturnType<typeof jobResult.parse>;
    expect(res).toMatchObject({ leaseToken: j.leaseToken, status: "done", unitsActed: 4 });
    expect(res.units.map((u) => u.path)).toEqual([6, 5, 50, 4].map((n) => `${P}/${SESSION(n)}.jsonl`));
    expect(res.logTail.some((l) => l.includes(` ${j.id} trashed ${P}/${SESSION(6)}.jsonl `))).toBe(true);
    // the run's report, then a fresh one after the job: the sessions' bytes drop by what was trashed
    expect(reports).toHaveLength(2);
    expect(sessions(reports[0]).bytes - sessions(reports[1]).bytes).toBe(res.bytesActed);
    expect(reports[1].roots.find((x) => x.key === "trash")).toMatchObject({ kind: "trash" });

    queued = [job({ kind: "restore", recipe: null, params: null, sourceJobId: j.id })];
    const back = await run();
    expect(back.code, back.stderr).toBe(0);
    expect((results[1].body as { unitsActed: number }).unitsActed).toBe(4);
    expect(snapshot(path.join(home, ".claude"))).toEqual(before);
    expect(fs.existsSync(path.join(home, TRASH_DIR, j.id))).toBe(false);
  });

  it("skips the owner's Keeps the job carries, as protected, beside the protect file", async () => {
    const kept = `${P}/${SESSION(6)}`;
    const j = job({ recipe: "claude-code-sessions", action: "trash", params: { olderThanDays: 30 }, keep: [kept] });
    queued = [j];
    const r = await run();
    expect(r.code, r.stderr).toBe(0);
    const res = results[0].body as ReturnType<typeof jobResult.parse>;
    expect(res.units.map((u) => u.path)).toEqual([5, 50, 4].map((n) => `${P}/${SESSION(n)}.jsonl`));
    expect(res.skipped).toContainEqual(expect.objectContaining({ path: `${kept}.jsonl`, reason: "protected" }));
    expect(fs.existsSync(path.join(home, `${kept}.jsonl`))).toBe(true);
    expect(fs.existsSync(path.join(home, kept))).toBe(true);
    // the reporter's own log says why
    expect(fs.readFileSync(path.join(home, CLEANUP_LOG), "utf8")).toContain(`kept on the dashboard: ${kept}`);
  });

  it("a purge-trash job empties the whole trash now", async () => {
    queued = [job({ recipe: "codex-rollouts", action: "trash" }), job({ recipe: "gemini-chats", action: "trash" })];
    expect((await run()).code).toBe(0);
    expect(fs.readdirSync(path.join(home, TRASH_DIR))).toHaveLength(2);
    queued = [job({ kind: "purge-trash", recipe: null, params: null })];
    const r = await run();
    expect(r.code, r.stderr).toBe(0);
    const res = results[2].body as { units: { action: string }[]; unitsActed: number };
    // two Codex rollouts; three Gemini sessions (one of them spread over five folders, trashed as one unit)
    expect(res.unitsActed).toBe(5);
    expect(res.units.every((u) => u.action === "purged")).toBe(true);
    expect(fs.readdirSync(path.join(home, TRASH_DIR))).toEqual([]);
  });

  it("a truncate job empties the log its report listed, and the fresh report shows the drop", async () => {
    const log = path.join(home, ".codex/log/codex-tui.log");
    fs.mkdirSync(path.dirname(log), { recursive: true });
    fs.writeFileSync(log, Buffer.alloc(8 * 1024 ** 2, "a line of the TUI's log\n"));
    const codex = (r: Report) => r.roots.find((x) => x.key === "codex:data")!;
    const listed = (r: Report) => codex(r).largest?.find((e) => e.path === "log/codex-tui.log");
    const j = job({
      kind: "truncate",
      recipe: null,
      params: null,
      truncate: { rootKey: "codex:data", path: "log/codex-tui.log", bytes: 8 * 1024 ** 2 },
    });
    queued = [j];
    const r = await run();
    expect(r.code, r.stderr).toBe(0);
    // the path the server is given is the one the report lists, relative to the root
    expect(listed(reports[0])).toMatchObject({ type: "file", bytes: 8 * 1024 ** 2 });
    const res = results[0].body as ReturnType<typeof jobResult.parse>;
    expect(res).toMatchObject({ status: "done", unitsActed: 1, bytesActed: 8 * 1024 ** 2 });
    expect(res.units).toEqual([{ path: ".codex/log/codex-tui.log", bytes: 8 * 1024 ** 2, action: "truncated" }]);
    expect(fs.statSync(log).size).toBe(0);
    expect(reports).toHaveLength(2);
    expect(codex(reports[0]).bytes - codex(reports[1]).bytes).toBe(res.bytesActed);
  });

  it("a stale lease (409) is logged and the result dropped; the local log keeps what was done", async () => {
    mode.result = "stale";
    const j = job({ recipe: "claude-code-debug" });
    queued = [j];
    const r = await run();
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/lease was stale/);
    expect(fs.readFileSync(path.join(home, ".coder-modules/coder/storage-reporter/cleanup.log"), "utf8")).toMatch(
      new RegExp(`${j.id} deleted .claude/debug/d4.txt`),
    );
  });

  it("a cancelled job stops at the next unit boundary and reports what it did", async () => {
    mode.progress = "cancel";
    for (let i = 0; i < 60; i++) put(home, `.claude/debug/many-${i}.txt`, 100, 20, nowSec());
    queued = [job({ recipe: "claude-code-debug" })];
    const r = await run();
    expect(r.code, r.stderr).toBe(0);
    const res = results[0].body as { unitsActed: number; status: string };
    expect(res.unitsActed).toBe(25); // the first lease extension, after 25 units, says cancelled
    expect(progressCalls).toBe(1);
  });
});

describe("a reporter killed mid-job (SIGKILL)", () => {
  /** 150 sessions of 40 files each, all old: a delete job takes a while. */
  function bigTree() {
    for (let i = 0; i < 150; i++) {
      const rel = `.claude/projects/-big/${SESSION(5000 + i)}`;
      put(home, `${rel}.jsonl`, 2000, 200, nowSec());
      for (let f = 0; f < 40; f++) put(home, `${rel}/tool-results/r${f}.txt`, 300, 200, nowSec());
      ageTree(path.join(home, rel), 200, nowSec());
    }
  }
  /**
   * Each session's entries now: all there, or none (relative to the before snapshot). Returns the counts and
   * the sessions found split (only possible if the kill fell between a session's two renames, microseconds).
   */
  function checkWhole(before: Map<string, string>) {
    const after = snapshot(path.join(home, ".claude/projects"));
    const counts = { whole: 0, gone: 0, split: [] as string[] };
    const ids = [...before.keys()]
      .filter((k) => k.split("/").length >= 2)
      .map((k) =>
        k
          .split("/")
          .slice(0, 2)
          .join("/")
          .replace(/\.jsonl$/, ""),
      );
    for (const id of new Set(ids)) {
      const mine = [...before.keys()].filter((k) => k === id + ".jsonl" || k === id || k.startsWith(id + "/"));
      const present = mine.filter((k) => after.get(k) === before.get(k));
      if (present.length !== 0 && present.length !== mine.length) counts.split.push(id);
      else if (present.length) counts.whole++;
      else counts.gone++;
    }
    return counts;
  }

  for (const when of ["while waiting for a lease extension", "right after the first unit is deleted"] as const) {
    it(`${when}: every unit is whole or gone, and the next run clears the staging`, async () => {
      bigTree();
      const before = snapshot(path.join(home, ".claude/projects"));
      if (when === "while waiting for a lease extension") mode.progress = "block";
      queued = [job({ recipe: "claude-code-sessions", params: { olderThanDays: 30 } })];
      const child = start();
      const logFile = path.join(home, ".coder-modules/coder/storage-reporter/cleanup.log");
      await new Promise<void>((resolve, reject) => {
        const t0 = Date.now();
        const poll = setInterval(() => {
          const text = fs.existsSync(logFile) ? fs.readFileSync(logFile, "utf8") : "";
          const ready = when === "while waiting for a lease extension" ? progressCalls > 0 : / deleted /.test(text);
          if (ready || Date.now() - t0 > 60_000) {
            clearInterval(poll);
            child.kill("SIGKILL");
            if (ready) resolve();
            else reject(new Error("the job did not start"));
          }
        }, 2);
      });
      await new Promise((r) => child.on("close", r));
      const counts = checkWhole(before);
      expect(counts.gone).toBeGreaterThan(0);
      expect(counts.whole).toBeGreaterThan(0);
      expect(counts.split.length).toBeLessThanOrEqual(1); // cut between its two renames: the next run rolls it back
      expect(results).toHaveLength(0);

      mode.progress = "ok";
      const next = await run(); // sweeps the interrupted job's staging
      expect(next.code, next.stderr).toBe(0);
      expect(fs.readdirSync(path.join(home, TRASH_DIR))).toEqual([]);
      expect(checkWhole(before).split).toEqual([]);
    }, 120_000);
  }
});
