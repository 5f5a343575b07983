// A truncate job: empties the one log file an admin confirmed (lib/catalog/truncatable.ts says which files may
// be). Nothing goes to the trash, so the checks come first and any doubt refuses: the root must be the report's
// root by key, every folder on the way a real folder on the root's file system, the file itself a regular file
// with one name (a symbolic link is never followed: the open would fail; a hard link's other name may lie
// outside the root), and no process may hold it open or locked. A writer with the file open keeps appending
// at its old offset, which leaves a hole as large as what was freed and frees nothing on disk.

import fs from "node:fs";
import type { ClaimedJob } from "@/lib/cleanup/protocol";
import { truncateRefusal } from "@/lib/catalog/truncatable";
import type { Env } from "../env";
import { joinRel } from "../scan/paths";
import { discoverRoots, type ReporterConfig } from "../scan/roots";
import { Refused, checkParents, openRoot, type RootHandle } from "./fs-safe";
import type { JobOutcome } from "./execute";
import type { CleanupLog } from "./log";
import { readOpenFiles, type OpenFiles } from "./open-files";

export type TruncateContext = {
  home: string;
  env: Env;
  config: ReporterConfig | null;
  log: CleanupLog;
  /** Test seam: the files processes hold open (default: read from /proc). */
  openFiles?: () => OpenFiles;
};

type Outcome = Pick<JobOutcome, "units" | "skipped" | "errors">;

/** Empties the job's file, or says why not: an error (bad job), or a skip "open" / "outside-root" (refused). */
export function truncateLog(job: ClaimedJob, ctx: TruncateContext): Outcome {
  const out: Outcome = { units: [], skipped: [], errors: [] };
  const fail = (path: string, message: string) => {
    out.errors.push({ path, message });
    ctx.log.write(job.id, "refused", path, 0, message);
    return out;
  };
  const t = job.truncate;
  if (!t) return fail("", "a truncate job needs its file");
  if (job.dryRun) return fail(t.path, "a truncation has no dry run: the dashboard never asks for one");
  const refusal = truncateRefusal(t.path);
  if (refusal) return fail(t.path, refusal);
  const spec = discoverRoots({ home: ctx.home, env: ctx.env, config: ctx.config }).find((s) => s.key === t.rootKey);
  if (!spec) return fail(t.path, `no root ${t.rootKey} in this workspace`);
  const rel = joinRel(spec.rel, t.path);
  const skip = (reason: "open" | "outside-root", bytes: number, message: string) => {
    out.skipped.push({ path: rel, bytes, reason });
    ctx.log.write(job.id, `skipped-${reason}`, rel, bytes, message);
    return out;
  };
  let fd: number;
  let root: RootHandle;
  try {
    root = openRoot(spec.abs);
    checkParents(root, t.path);
    // O_NOFOLLOW: a link in the file's place fails here; O_NONBLOCK: a FIFO put there does not hang the job
    fd = fs.openSync(
      `${root.abs}/${t.path}`,
      fs.constants.O_WRONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK | fs.constants.O_NOCTTY,
    );
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || (err instanceof Refused && err.reason === "gone"))
      return fail(rel, `${rel} is gone: nothing to truncate`);
    if (code === "ELOOP") return skip("outside-root", 0, `${rel} is a symbolic link: never followed`);
    if (err instanceof Refused) return skip("outside-root", 0, err.message);
    return fail(rel, (err as Error).message);
  }
  try {
    const st = fs.fstatSync(fd, { bigint: true });
    const bytes = Number(st.blocks) * 512;
    if (!st.isFile()) return skip("outside-root", 0, `${rel} is not a regular file`);
    if (st.dev !== root.dev) return skip("outside-root", bytes, `${rel} is on another file system`);
    if (st.nlink !== 1n) return skip("outside-root", bytes, `${rel} has ${st.nlink} names (hard links)`);
    // our own descriptor is not counted: readOpenFiles leaves this process out
    if ((ctx.openFiles ?? readOpenFiles)().has(st.dev, st.ino))
      return skip("open", bytes, `${rel} is open or locked by a process: nothing changed`);
    fs.ftruncateSync(fd, 0);
    const freed = bytes - Number(fs.fstatSync(fd, { bigint: true }).blocks) * 512;
    out.units.push({ path: rel, bytes: freed, action: "truncated" });
    ctx.log.write(job.id, "truncated", rel, freed);
    return out;
  } catch (err) {
    return fail(rel, (err as Error).message);
  } finally {
    fs.closeSync(fd);
  }
}
