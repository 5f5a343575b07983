// A truncate job on a real home: the confirmed log is emptied (du agrees), and every doubt refuses with the file
// untouched: a process holding it open, a symbolic link in its place or on its way, a second name, a database.

import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ENV, job } from "@/tests/support/cleanup-fixtures";
import { CleanupLog } from "./log";
import { truncateLog } from "./truncate";

const MIB = 1024 * 1024;
let tmp: string;
let home: string;
let log: string;
const children: ChildProcess[] = [];

/** du's figure for a file, in bytes (allocated blocks, as the report and the job count them). */
const du = (file: string) => Number(execFileSync("du", ["-B1", file], { encoding: "utf8" }).split("\t")[0]);
const sha = (file: string) => crypto.createHash("sha1").update(fs.readFileSync(file)).digest("hex");

/** Writes `mib` MiB of real (allocated, not sparse) lines. */
function writeLog(file: string, mib: number) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const line = Buffer.alloc(MIB, "2026-11-27T10:00:00Z INFO codex_tui: a line nobody reads\n");
  const fd = fs.openSync(file, "w");
  for (let i = 0; i < mib; i++) fs.writeSync(fd, line);
  fs.closeSync(fd);
}

function truncate(p: string, rootKey = "codex:data") {
  return truncateLog(job({ kind: "truncate", recipe: null, params: null, truncate: { rootKey, path: p, bytes: 0 } }), {
    home,
    env: ENV(home),
    config: null,
    log: new CleanupLog(home),
  });
}

beforeEach(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "truncate-")));
  home = path.join(tmp, "home");
  log = path.join(home, ".codex/log/codex-tui.log");
  writeLog(log, 64);
});
afterEach(async () => {
  for (const c of children.splice(0)) {
    c.kill("SIGKILL");
    await new Promise((r) => c.once("exit", r));
  }
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe("truncate job", () => {
  it("empties the confirmed log and reports what du says it freed", () => {
    const before = du(log);
    expect(before).toBeGreaterThanOrEqual(64 * MIB);
    const out = truncate("log/codex-tui.log");
    expect(out.errors).toEqual([]);
    expect(out.skipped).toEqual([]);
    expect(out.units).toEqual([{ path: ".codex/log/codex-tui.log", bytes: before, action: "truncated" }]);
    expect(fs.statSync(log).size).toBe(0);
    expect(du(log)).toBe(0);
    // the workspace keeps its own record of it
    expect(fs.readFileSync(path.join(home, ".coder-modules/coder/storage-reporter/cleanup.log"), "utf8")).toMatch(
      new RegExp(`truncated \\.codex/log/codex-tui\\.log ${before}\\n`),
    );
  });

  it("refuses while a process holds the file open, and leaves it as it was", async () => {
    const child = spawn("tail", ["-f", log], { stdio: "ignore" });
    children.push(child);
    await new Promise((r) => setTimeout(r, 200));
    const [size, blocks, hash] = [fs.statSync(log).size, du(log), sha(log)];
    const out = truncate("log/codex-tui.log");
    expect(out.units).toEqual([]);
    expect(out.errors).toEqual([]);
    expect(out.skipped).toEqual([{ path: ".codex/log/codex-tui.log", bytes: blocks, reason: "open" }]);
    expect([fs.statSync(log).size, du(log), sha(log)]).toEqual([size, blocks, hash]);
  });

  it("never follows a symbolic link, in the file's place or on its way", () => {
    const outside = path.join(tmp, "outside.log");
    writeLog(outside, 1);
    const hash = sha(outside);
    fs.symlinkSync(outside, path.join(home, ".codex/log/linked.log"));
    fs.mkdirSync(path.join(tmp, "elsewhere"));
    fs.copyFileSync(outside, path.join(tmp, "elsewhere/app.log"));
    fs.symlinkSync(path.join(tmp, "elsewhere"), path.join(home, ".codex/logs"));
    for (const p of ["log/linked.log", "logs/app.log"]) {
      const out = truncate(p);
      expect(out.units).toEqual([]);
      expect(out.skipped.map((s) => s.reason)).toEqual(["outside-root"]);
    }
    expect(sha(outside)).toBe(hash);
    expect(sha(path.join(tmp, "elsewhere/app.log"))).toBe(hash);
  });

  it("refuses a file with a second name: the other may lie outside the root", () => {
    fs.linkSync(log, path.join(tmp, "second-name.log"));
    const hash = sha(log);
    expect(truncate("log/codex-tui.log").skipped.map((s) => s.reason)).toEqual(["outside-root"]);
    expect(sha(log)).toBe(hash);
  });

  it("never truncates a database, nor a file that is not a log, nor one of an unknown root", () => {
    const db = path.join(home, ".codex/logs_2.sqlite");
    const wal = path.join(home, ".codex/log/state.db-wal");
    const other = path.join(home, ".codex/history.jsonl");
    for (const f of [db, wal, other]) writeLog(f, 1);
    const hashes = [db, wal, other].map(sha);
    for (const [p, message] of [
      ["logs_2.sqlite", /is a database/],
      ["log/state.db-wal", /is a database/],
      ["history.jsonl", /not a log file/],
    ] as const) {
      const out = truncate(p);
      expect(out.units).toEqual([]);
      expect(out.errors[0].message).toMatch(message);
    }
    expect(truncate("log/codex-tui.log", "nowhere").errors[0].message).toMatch(/no root nowhere/);
    expect([db, wal, other].map(sha)).toEqual(hashes);
    expect(du(log)).toBeGreaterThan(0);
  });
});
