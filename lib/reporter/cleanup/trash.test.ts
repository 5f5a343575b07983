// The trash: a trashed unit comes back byte for byte, an occupied location is not overwritten, expired and
// interrupted jobs are settled by the next run, and the trash is reported as a root of its own.

import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { TRASH_DIR } from "@/lib/catalog/recipes";
import { discoverRoots } from "../scan/roots";
import { scanRoots } from "../scan/scan-roots";
import { runCleanup } from "./execute";
import {
  ENV,
  SESSION,
  buildCleanupHome,
  job,
  kubeletWalk,
  snapshot,
  cleanupContext,
} from "@/tests/support/cleanup-fixtures";
import { CleanupLog } from "./log";
import { purgeFolder, readManifest, restoreFolder, sweepTrash, writeManifest } from "./trash";

let tmp: string;
let home: string;
let nowSec: number;
const P = ".claude/projects/-work-app";
const REPORTER = ".coder-modules/coder/storage-reporter";

beforeEach(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "cleanup-trash-")));
  home = path.join(tmp, "home");
  fs.mkdirSync(home);
  nowSec = Math.floor(Date.now() / 1000);
  buildCleanupHome(home, path.join(tmp, "outside"), nowSec);
  kubeletWalk(home);
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

const log = () => new CleanupLog(home, () => new Date());
const ctx = () => cleanupContext(home);
/** The home without the reporter's own folder (trash, log). */
const userFiles = () =>
  new Map([...snapshot(home)].filter(([k]) => !k.startsWith(REPORTER) && k !== ".coder-modules/coder"));

describe("trash", () => {
  it("trash then restore gives back the same files, byte for byte", async () => {
    const before = userFiles();
    const j = job({ recipe: "claude-code-sessions", action: "trash", trashDays: 3, params: { olderThanDays: 15 } });
    const res = await runCleanup(j, ctx());
    expect(res.units.map((u) => u.action)).toEqual(Array(5).fill("trashed"));
    expect(res.units[0].trashPath).toBe(`${TRASH_DIR}/${j.id}/${P}/${SESSION(6)}.jsonl`);
    // every trashed entry sits in the job's trash folder unchanged
    const trashed = snapshot(path.join(home, TRASH_DIR, j.id));
    for (const [k, v] of before) if (!userFiles().has(k)) expect(trashed.get(k), k).toBe(v);
    const m = readManifest(path.join(home, TRASH_DIR, j.id))!;
    expect(m).toMatchObject({ jobId: j.id, action: "trash", complete: true });
    expect(Date.parse(m.expiresAt) - Date.parse(m.createdAt)).toBe(3 * 86_400_000);
    expect(m.units.find((u) => u.path.endsWith(`${SESSION(6)}.jsonl`))!.tops).toEqual([
      `${P}/${SESSION(6)}.jsonl`,
      `${P}/${SESSION(6)}`,
    ]);

    const back = restoreFolder(home, j.id, false, log());
    expect(back.units).toHaveLength(5);
    expect(userFiles()).toEqual(before);
    expect(fs.existsSync(path.join(home, TRASH_DIR, j.id))).toBe(false);
  });

  it("restore skips a unit whose place is taken, keeps it in the trash", async () => {
    const j = job({ recipe: "codex-rollouts", action: "trash" });
    const res = await runCleanup(j, ctx());
    expect(res.units).toHaveLength(2);
    const taken = path.join(home, res.units[0].path);
    fs.writeFileSync(taken, "new");
    const back = restoreFolder(home, j.id, false, log());
    expect(back.skipped).toEqual([{ path: res.units[0].path, bytes: res.units[0].bytes, reason: "changed" }]);
    expect(back.units.map((u) => u.path)).toEqual([res.units[1].path]);
    expect(fs.readFileSync(taken, "utf8")).toBe("new");
    expect(readManifest(path.join(home, TRASH_DIR, j.id))!.units.map((u) => u.path)).toEqual([res.units[0].path]);
  });

  it("a delete job leaves no staging behind; expired trash is emptied by the next run, fresh trash stays", async () => {
    await runCleanup(job({ recipe: "claude-code-debug" }), ctx());
    expect(fs.readdirSync(path.join(home, TRASH_DIR))).toEqual([]);
    const old = job({ recipe: "gemini-chats", action: "trash", trashDays: 1 });
    const fresh = job({ recipe: "codex-rollouts", action: "trash", trashDays: 30 });
    await runCleanup(old, ctx());
    await runCleanup(fresh, ctx());
    sweepTrash(home, new Date(Date.now() + 2 * 86_400_000), log());
    expect(fs.readdirSync(path.join(home, TRASH_DIR))).toEqual([fresh.id]);
    expect(fs.readFileSync(path.join(home, ".coder-modules/coder/storage-reporter/cleanup.log"), "utf8")).toMatch(
      new RegExp(`${old.id} purged .gemini/tmp/abc123/chats/session-35.json \\d+ expired`),
    );
    const purged = purgeFolder(home, fresh.id, log(), "purge job");
    expect(purged.units.map((u) => u.action)).toEqual(["purged", "purged"]);
    expect(fs.readdirSync(path.join(home, TRASH_DIR))).toEqual([]);
  });

  it("an interrupted job's unit moved only in part is moved back whole by the next run", async () => {
    const j = job({ recipe: "claude-code-sessions", action: "trash", params: { olderThanDays: 50 } });
    const res = await runCleanup(j, ctx());
    const dir = path.join(home, TRASH_DIR, j.id);
    const m = readManifest(dir)!;
    // as if the process died between the two renames of session 6: its folder went back
    const u = m.units.find((x) => x.path.endsWith(`${SESSION(6)}.jsonl`))!;
    fs.renameSync(path.join(dir, u.tops[1]), path.join(home, u.tops[1]));
    writeManifest(dir, { ...m, complete: false });
    sweepTrash(home, new Date(), log());
    expect(fs.existsSync(path.join(home, u.tops[0]))).toBe(true);
    expect(fs.existsSync(path.join(home, u.tops[1]))).toBe(true);
    expect(readManifest(dir)!.units.map((x) => x.path)).toEqual(
      res.units.map((x) => x.path).filter((p) => p !== u.path),
    );
  });

  it("is reported as a root of kind trash, left out of the reporter's module folder", async () => {
    const j = job({ recipe: "codex-rollouts", action: "trash" });
    await runCleanup(j, ctx());
    const specs = discoverRoots({ home, env: ENV(home) });
    const scan = await scanRoots(specs, nowSec, { home });
    const trash = scan.roots.find((r) => r.key === "trash")!;
    expect(trash).toMatchObject({ kind: "trash", path: TRASH_DIR, agent: "other" });
    const own = scan.roots.find((r) => r.key === "coder/storage-reporter")!;
    const du = (p: string) => Number(execFileSync("du", ["-sxB1", p], { encoding: "utf8" }).split("\t")[0]);
    expect(trash.bytes).toBe(du(path.join(home, TRASH_DIR)));
    expect(own.bytes + trash.bytes).toBe(du(path.join(home, REPORTER)));
  });
});
