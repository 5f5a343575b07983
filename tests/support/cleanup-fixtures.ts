// A realistic home for the cleanup tests (not bundled): every recipe's units at known ages (mtimes), the
// SQLite files no recipe may touch, and symbolic links that lead out of their unit. Every ctime is "now", as on
// a Kubernetes workspace after kubelet's fsGroup walk (kubeletWalk does that walk on purpose).

import { execFileSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { ClaimedJob } from "@/lib/cleanup/protocol";
import { DAY_S } from "@/tests/support/reporter";
import type { ExecuteContext } from "@/lib/reporter/cleanup/execute";
import { buildGeminiData } from "@/tests/support/gemini-fixture";
import { CleanupLog } from "@/lib/reporter/cleanup/log";
import { readProtect } from "@/lib/reporter/cleanup/protect";

const uuid = (n: number) => `${String(n).padStart(8, "0")}-aaaa-4bbb-8ccc-${String(n).padStart(12, "0")}`;
export const SESSION = (n: number) => uuid(n);

/** Sets an entry's times (not following a link) to `ageDays` before `nowSec`. */
export function age(p: string, ageDays: number, nowSec: number) {
  const t = nowSec - ageDays * DAY_S;
  fs.lutimesSync(p, t, t);
}

/** Writes a file of `bytes` and gives it and the folders created for it the age. */
export function put(home: string, rel: string, bytes: number, ageDays: number, nowSec: number) {
  const abs = path.join(home, rel);
  fs.mkdirSync(path.dirname(abs), { recursive: true });
  fs.writeFileSync(abs, crypto.randomBytes(bytes));
  age(abs, ageDays, nowSec);
}

/** Gives a folder and everything in it the age (folders last: writing into a folder changes its mtime). */
export function ageTree(abs: string, ageDays: number, nowSec: number) {
  const st = fs.lstatSync(abs);
  if (st.isDirectory()) for (const n of fs.readdirSync(abs)) ageTree(path.join(abs, n), ageDays, nowSec);
  age(abs, ageDays, nowSec);
}

export const CLAUDE_SESSION_AGES = [2, 10, 20, 40, 60, 100];
export const DEBUG_AGES = [1, 3, 8, 15, 30];

/** Builds the home; returns the folder outside it whose files the links point at. */
export function buildCleanupHome(home: string, outside: string, nowSec: number) {
  const p = (rel: string, bytes: number, ageDays: number) => put(home, rel, bytes, ageDays, nowSec);
  const proj = ".claude/projects/-work-app";
  CLAUDE_SESSION_AGES.forEach((a, i) => {
    const id = SESSION(i + 1);
    p(`${proj}/${id}.jsonl`, 4000 + i * 1000, a);
    p(`${proj}/${id}/subagents/agent-1.jsonl`, 3000, a);
    p(`${proj}/${id}/tool-results/r1.txt`, 9000, a);
    ageTree(path.join(home, proj, id), a, nowSec);
  });
  p(`${proj}/${SESSION(50)}.jsonl`, 6000, 50); // a session without a folder
  p(`${proj}/${uuid(90)}/orphan.txt`, 2000, 90); // a folder without its .jsonl: not a unit
  ageTree(path.join(home, proj, uuid(90)), 90, nowSec);
  DEBUG_AGES.forEach((a, i) => p(`.claude/debug/d${i}.txt`, 2000 * (i + 1), a));
  [5, 20, 40].forEach((a) => {
    p(`.claude/file-history/fh${a}/v1`, 800, a);
    p(`.claude/file-history/fh${a}/v2`, 1600, a);
    ageTree(path.join(home, `.claude/file-history/fh${a}`), a, nowSec);
  });
  p(".claude/history.jsonl", 1500, 100);

  // links out of their unit: to a file and a folder outside home, and to another session
  fs.mkdirSync(path.join(outside, "repo"), { recursive: true });
  fs.writeFileSync(path.join(outside, "precious.txt"), "keep me");
  fs.writeFileSync(path.join(outside, "repo", "main.go"), "package main");
  fs.symlinkSync(path.join(outside, "precious.txt"), path.join(home, ".claude/debug/outside-link"));
  age(path.join(home, ".claude/debug/outside-link"), 30, nowSec);
  fs.symlinkSync(path.join(outside, "repo"), path.join(home, ".claude/file-history/fh40/repo"));
  fs.symlinkSync(`../../${SESSION(1)}.jsonl`, path.join(home, proj, SESSION(5), "subagents/link-to-s1"));
  ageTree(path.join(home, ".claude/file-history/fh40"), 40, nowSec);
  ageTree(path.join(home, proj, SESSION(5)), 60, nowSec);

  [5, 45, 200].forEach((a) =>
    p(`.codex/sessions/2025/01/0${(a % 9) + 1}/rollout-2025-01-01T00-00-0${a % 10}-${a}.jsonl`, 5000, a),
  );
  p(".codex/state_5.sqlite", 8192, 200);
  p(".codex/state_5.sqlite-wal", 4096, 200);
  [2, 35].forEach((a) => p(`.gemini/tmp/abc123/chats/session-${a}.json`, 3000, a));
  p(".gemini/tmp/abc123/logs.json", 500, 100);
  buildGeminiData(p, (rel, a) => ageTree(path.join(home, rel), a, nowSec));
  [3, 40].forEach((a) => {
    p(`.copilot/session-state/cs${a}/events.jsonl`, 3000, a);
    p(`.copilot/session-state/cs${a}/session.db`, 8192, a);
    p(`.copilot/session-state/cs${a}/session.db-wal`, 4096, a);
    ageTree(path.join(home, `.copilot/session-state/cs${a}`), a, nowSec);
  });
  [4, 50].forEach((a) => {
    p(`.cursor/chats/h1/chat${a}/store.db`, 8192, a);
    ageTree(path.join(home, `.cursor/chats/h1/chat${a}`), a, nowSec);
  });
  [1, 10].forEach((a) => p(`.local/share/opencode/log/${a}.log`, 1000, a));
  [2, 12].forEach((a) => p(`.local/share/opencode/tool-output/t${a}`, 1000, a));
  p(".local/share/opencode/opencode.db", 8192, 100);
  p(".local/share/opencode/opencode.db-wal", 4096, 100);
  p(".local/share/goose/sessions/sessions.db", 40_960, 100);
  p(".local/share/goose/sessions/sessions.db-wal", 16_384, 100);
  p(".local/share/goose/sessions/sessions.db-shm", 32_768, 100);

  p(".coder-modules/coder/claude-code/logs/a.log", 2500, 20);
  p(".coder-modules/coder/claude-code/logs/b.log", 700, 3);
  p(".coder-modules/coder/claude-code/agentapi-state.json", 900, 30);
  p(".coder-modules/coder/claude-code/agentapi.pid", 6, 30);
  p(".coder-modules/coder/claude-code/scripts/start.sh", 700, 100);
  p(".claude-module/agentapi-state.json", 900, 30); // the legacy layout of the same module
  p(".claude-module/agentapi.pid", 6, 30);
  p(".codex-module/agentapi.pid", 6, 30);
  p(".codex-module/install.log", 300, 30);
  build2026Trees(p, home, nowSec);
  p(".coder/coder-script-data/old-1/state", 700, 10);
  ageTree(path.join(home, ".coder/coder-script-data/old-1"), 10, nowSec);
  p(".coder/coder-script-data/current/state", 500, 10);
  ageTree(path.join(home, ".coder/coder-script-data/current"), 10, nowSec);
}

/**
 * The bloat the agents' own trackers reported in 2026, shaped as each agent writes it: Claude Code's MCP logs
 * and releases, Codex's archived rollouts and standalone releases, Copilot's releases, OpenCode's snapshots.
 */
function build2026Trees(p: (rel: string, bytes: number, ageDays: number) => void, home: string, nowSec: number) {
  const mcp = ".cache/claude-cli-nodejs/-work-app";
  p(`${mcp}/mcp-logs-github/2026-11-25T10-00-00-000Z.jsonl`, 3000, 2);
  p(`${mcp}/mcp-logs-github/2026-11-01T10-00-00-000Z.jsonl`, 9000, 26);
  p(`${mcp}/mcp-logs-ide/2026-10-01T10-00-00-000Z.jsonl`, 5000, 57);
  p(`${mcp}/mcp-logs-ide/notes.txt`, 100, 57); // not a log file of the server
  [
    ["2.1.204", 30],
    ["2.1.205", 20],
    ["2.1.207", 10],
  ].forEach(([v, a]) => p(`.local/share/claude/versions/${v}`, 7000, a as number));
  const rel = ".codex/packages/standalone/releases";
  [
    ["0.148.0-x86_64-unknown-linux-musl", 40],
    ["0.149.1-x86_64-unknown-linux-musl", 9],
  ].forEach(([v, a]) => {
    p(`${rel}/${v}/bin/codex`, 6000, a as number);
    ageTree(path.join(home, rel, v as string), a as number, nowSec);
  });
  fs.symlinkSync("releases/0.149.1-x86_64-unknown-linux-musl", path.join(home, ".codex/packages/standalone/current"));
  p(".codex/archived_sessions/rollout-2026-11-20T10-00-00-0a1b.jsonl", 4000, 3);
  p(".codex/archived_sessions/rollout-2026-09-01T10-00-00-9f8e.jsonl", 4000, 60);
  p(".codex/log/codex-tui.log", 5000, 1);
  p(".codex/logs_2.sqlite", 8192, 1);
  p(".codex/logs_2.sqlite-wal", 4096, 1);
  [
    ["1.0.31", 30],
    ["1.0.34", 9],
  ].forEach(([v, a]) => {
    p(`.copilot/pkg/universal/${v}/index.js`, 5000, a as number);
    ageTree(path.join(home, ".copilot/pkg/universal", v as string), a as number, nowSec);
  });
  [
    ["4b825dc642cb6eb9a060e54bf8d69288fbee4904", 30],
    ["9daeafb9864cf43055ae93beb0afd6c7d144bfa4", 2],
  ].forEach(([h, a]) => {
    p(`.local/share/opencode/snapshot/${h}/HEAD`, 30, a as number);
    p(`.local/share/opencode/snapshot/${h}/objects/pack/pack-1.pack`, 9000, a as number);
    ageTree(path.join(home, ".local/share/opencode/snapshot", h as string), a as number, nowSec);
  });
}

/**
 * What kubelet does to a pod's volumes with fsGroup at every start (and a template's `chown -R` at start): it
 * lchowns every entry to the group and adds group permissions. Owner and mode may not even change, yet every
 * ctime becomes now, while every mtime stays.
 */
export function kubeletWalk(dir: string) {
  execFileSync("chown", ["-hR", `:${process.getgid!()}`, dir]);
  execFileSync("chmod", ["-R", "g+rwX", dir]);
}

export const ENV = (home: string) => ({
  HOME: home,
  CODER_SCRIPT_DATA_DIR: path.join(home, ".coder/coder-script-data/current"),
});

/**
 * What a cleanup needs to act on `home` in a test: its environment, no configuration, its own log, the clock,
 * the home's protect list, a lease never lost. With `running`, the programs the recipes' guards see as running
 * (in a workspace started an hour before `nowSec`) instead of this machine's.
 */
export function cleanupContext(home: string, guard?: { running: string[]; nowSec: number }): ExecuteContext {
  const now = () => new Date();
  return {
    home,
    env: ENV(home),
    config: null,
    log: new CleanupLog(home, now),
    now,
    protect: readProtect(home),
    progress: async () => false,
    ...(guard && {
      guardFacts: () => ({ home, running: new Set(guard.running), startSec: guard.nowSec - 3600 }),
    }),
  };
}

/** Every entry under `dir` (relative), with its kind, size and the sha1 of files: the "file by file" check. */
export function snapshot(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (rel: string) => {
    const abs = path.join(dir, rel);
    const st = fs.lstatSync(abs);
    if (st.isSymbolicLink()) out.set(rel, `link ${fs.readlinkSync(abs)}`);
    else if (st.isDirectory()) {
      if (rel) out.set(rel, "dir");
      for (const n of fs.readdirSync(abs)) walk(rel ? `${rel}/${n}` : n);
    } else out.set(rel, `file ${st.size} ${crypto.createHash("sha1").update(fs.readFileSync(abs)).digest("hex")}`);
  };
  walk("");
  return out;
}

export function job(over: Partial<ClaimedJob> = {}): ClaimedJob {
  return {
    id: "job-" + crypto.randomBytes(4).toString("hex"),
    kind: "cleanup",
    leaseToken: "lease",
    leaseExpiresAt: new Date(Date.now() + 3600_000).toISOString(),
    recipe: null,
    custom: null,
    params: { olderThanDays: 7 },
    dryRun: false,
    action: "delete",
    trashDays: 7,
    minAgeHours: 24,
    limits: { maxUnits: 10_000, maxBytes: 2 ** 40, errorPct: 20, minErrors: 5 },
    sourceJobId: null,
    ...over,
  };
}
