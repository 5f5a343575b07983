// Builds home folders for the reporter's tests and benchmark. Not bundled into the reporter.

import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const DAY_S = 86_400;

export function write(file: string, bytes: number, ageDays?: number, now = Date.now() / 1000) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, Buffer.alloc(bytes, 120));
  if (ageDays !== undefined) setAge(file, ageDays, now);
}

export function setAge(file: string, ageDays: number, now = Date.now() / 1000) {
  const t = Math.floor(now - ageDays * DAY_S);
  fs.utimesSync(file, t, t);
}

export const UUID1 = "0b6a2f4e-1111-4c3a-9d1e-2f0a9b8c7d61";
export const UUID2 = "1c7b3a5f-2222-4d4b-8e2f-3a1b0c9d8e72";
export const UUID3 = "2d8c4b6a-3333-4e5c-9f3a-4b2c1d0e9f83";
export const SCRIPT_CURRENT = "9a1b2c3d-4e5f-4a6b-8c7d-0e1f2a3b4c5d";
export const SCRIPT_OLD = "8f0e1d2c-3b4a-4596-8786-a5b4c3d2e1f0";

/**
 * A home folder with every kind of root and every awkward entry: nested folders, a thousand small files, a
 * sparse file, hard links inside one root and across two, symbolic links (to a file, a folder, in a loop,
 * out of the home), Claude sessions with their folders, Codex rollouts, a Gemini chat, Goose's WAL set,
 * AgentAPI leftovers in a module folder and in a legacy module folder, and current and orphaned script data.
 */
export function buildHome(home: string, now = Date.now() / 1000) {
  const h = (p: string) => path.join(home, p);
  // Claude Code
  write(h(`.claude/projects/-work-app/${UUID1}.jsonl`), 5000, 2, now);
  write(h(`.claude/projects/-work-app/${UUID1}/subagents/agent-1.jsonl`), 3000, 2, now);
  write(h(`.claude/projects/-work-app/${UUID1}/tool-results/t1.txt`), 20_000, 2, now);
  write(h(`.claude/projects/-work-app/${UUID2}.jsonl`), 7000, 40, now);
  write(h(`.claude/projects/-work-b/${UUID3}.jsonl`), 9000, 100, now);
  write(h(".claude/history.jsonl"), 1500);
  write(h(".claude/file-history/s1/v1"), 800);
  for (let i = 0; i < 3; i++) write(h(`.claude/debug/x${i}.txt`), 2000 * (i + 1), i === 0 ? 10 : undefined, now);
  write(h(".claude/shell-snapshots/snap.sh"), 300);
  for (let d = 0; d < 10; d++)
    for (let f = 0; f < 100; f++) write(h(`.claude/many/d${d}/f${f}.txt`), (d * 100 + f) % 700);
  // a sparse file: 64 MiB apparent, one block written at the end
  const sparse = h(".claude/sparse.bin");
  const fd = fs.openSync(sparse, "w");
  fs.writeSync(fd, Buffer.from("end"), 0, 3, 64 * 1024 * 1024 - 3);
  fs.closeSync(fd);
  // hard links inside the root
  write(h(".claude/hl-a"), 12_345);
  fs.linkSync(h(".claude/hl-a"), h(".claude/many/hl-b"));
  // symbolic links: to a file, to a folder, a loop, out of the home
  fs.symlinkSync(`projects/-work-app/${UUID1}.jsonl`, h(".claude/link-to-file"));
  fs.symlinkSync("debug", h(".claude/link-to-dir"));
  fs.symlinkSync("loop", h(".claude/loop"));
  fs.symlinkSync(".", h(".claude/many/self"));
  fs.symlinkSync("/etc", h(".claude/outside"));
  write(h(".claude.json"), 4321);

  // Codex, Gemini, Goose
  write(h(".codex/sessions/2025/01/02/rollout-2025-01-02T10-00-00-abc.jsonl"), 50_000, 200, now);
  write(h(".codex/history.jsonl"), 600);
  write(h(".codex/state.sqlite"), 8192);
  write(h(".codex/log/codex-tui.log"), 4000);
  write(h(".gemini/tmp/abcdef0123/chats/session-2025-01-01.json"), 6000, 3, now);
  write(h(".gemini/settings.json"), 100);
  write(h(".local/share/goose/sessions/sessions.db"), 40_960);
  write(h(".local/share/goose/sessions/sessions.db-wal"), 16_384);
  write(h(".local/share/goose/sessions/sessions.db-shm"), 32_768);

  // modules (registry layout), with AgentAPI leftovers
  write(h(".coder-modules/coder/claude-code/logs/install.log"), 2500);
  write(h(".coder-modules/coder/claude-code/scripts/start.sh"), 700);
  write(h(".coder-modules/coder/claude-code/agentapi-state.json"), 900);
  write(h(".coder-modules/coder/claude-code/agentapi.pid"), 6);
  write(h(".coder-modules/coder/codex/logs/start.log"), 1200);
  write(h(".coder-modules/coder-labs/some-tool/data.txt"), 100);

  // a legacy module folder with a leftover, holding a hard link to a file of ~/.claude (across roots)
  write(h(".claude-module/agentapi.log"), 3000);
  write(h(".claude-module/agentapi-state.json"), 1500, 30, now);
  fs.linkSync(h(".claude/hl-a"), h(".claude-module/shared-link"));

  // script data: the current folder and an orphaned one
  write(h(`.coder/coder-script-data/${SCRIPT_CURRENT}/state`), 500);
  write(h(`.coder/coder-script-data/${SCRIPT_OLD}/state`), 700, 20, now);

  // a custom root
  write(h("work/cache/blob.bin"), 70_000);
}

/** `du -sx` of several paths in one invocation (a hard link counts once, in the first path holding it). */
export function du(paths: string[], flags: string[] = ["-B1"], asUser?: string): Map<string, number> {
  const cmd = asUser ? "setpriv" : "du";
  const args = asUser
    ? ["--reuid", asUser, "--regid", asUser, "--clear-groups", "du", "-sx", ...flags, "--", ...paths]
    : ["-sx", ...flags, "--", ...paths];
  let out: string;
  try {
    out = execFileSync(cmd, args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  } catch (err) {
    out = (err as { stdout?: string }).stdout ?? ""; // du exits 1 after reporting unreadable entries
  }
  const m = new Map<string, number>();
  for (const line of out.trim().split("\n")) {
    const tab = line.indexOf("\t");
    if (tab > 0) m.set(line.slice(tab + 1), Number(line.slice(0, tab)));
  }
  return m;
}

/** Whether this process may mount a tmpfs (root, outside a restricted container): tests that need one skip otherwise. */
export function canMountTmpfs(): boolean {
  if (process.getuid?.() !== 0) return false;
  const d = fs.mkdtempSync(path.join(os.tmpdir(), "reporter-mnt-probe-"));
  const ok = spawnSync("mount", ["-t", "tmpfs", "none", d]).status === 0;
  if (ok) spawnSync("umount", [d]);
  fs.rmdirSync(d);
  return ok;
}

/**
 * The native scanner (native/scan.c) compiled into `dir` for the tests. A C compiler is required: without one
 * this throws (the suites that need it fail, never skip).
 */
export function compiledScanner(dir: string): string {
  const out = path.join(dir, "scan");
  const src = fileURLToPath(new URL("../../lib/reporter/scan/native/scan.c", import.meta.url));
  execFileSync("cc", ["-O2", "-Wall", "-Wextra", "-Werror", "-o", out, src], { stdio: ["ignore", "pipe", "pipe"] });
  return out;
}
