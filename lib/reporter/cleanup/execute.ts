// A cleanup job on the workspace: find and measure the units, plan, then act on each unit whole or not at
// all. Right before acting each unit is measured again (any change since planning: skipped), checked against
// the files processes hold open or locked, and moved out of its root with one rename per top entry into the
// job's trash folder, where a "delete" job then removes it (a unit is never left half removed in its root,
// even if the process dies). A dry run does all the checks and touches nothing.

import path from "node:path";
import type { ClaimedJob, JobResult } from "@/lib/cleanup/protocol";
import { RECIPES, TRASH_DIR, onlyDeleted, withRecipeFloor } from "@/lib/catalog/recipes";
import { Refused, checkParents, difference, makeFolderWritable, measure, removeTree, type RootHandle } from "./fs-safe";
import type { CleanupLog } from "./log";
import { readOpenFiles, type OpenFiles } from "./open-files";
import { capJob, plan } from "./plan";
import { recipeBlocked, runningPrograms, workspaceStartSec, type GuardFacts } from "./recipe-guards";
import type { ProtectList } from "./protect";
import { moveIn, openJobTrash, writeManifest, type Manifest } from "./trash";
import { findJobUnits, jobTarget, type FindOptions, type JobUnit } from "./units";

export type JobOutcome = Omit<JobResult, "leaseToken">;

/** A job's outcome before it has acted: done, nothing counted, started and finished at `startedAt`. */
export const emptyOutcome = (startedAt: string): JobOutcome => ({
  status: "done",
  unitsActed: 0,
  bytesActed: 0,
  units: [],
  skipped: [],
  errors: [],
  logTail: [],
  startedAt,
  finishedAt: startedAt,
});

export type ExecuteContext = Omit<FindOptions, "nowSec" | "protect"> & {
  log: CleanupLog;
  now: () => Date;
  protect: ProtectList;
  /** Extends the lease; true when the job must stop (cancelled, or the lease is lost). */
  progress: () => Promise<boolean>;
  /** Test seam: runs between planning and acting. */
  afterPlan?: (units: readonly JobUnit[]) => void | Promise<void>;
  openFiles?: () => OpenFiles;
  /** Test seam: the running programs and the workspace's start that recipe-guards.ts reads from /proc. */
  guardFacts?: () => GuardFacts;
};

const PROGRESS_EVERY_UNITS = 25;
const PROGRESS_EVERY_MS = 20_000;
const MAX_LISTED = 100_000;

export async function runCleanup(job: ClaimedJob, ctx: ExecuteContext): Promise<JobOutcome> {
  ctx.log.mark();
  const jobStart = Date.now();
  const startedAt = ctx.now().toISOString();
  const out = emptyOutcome(startedAt);
  const finish = (status: JobOutcome["status"]) => {
    out.status = status;
    out.units = out.units.slice(0, MAX_LISTED);
    out.skipped = out.skipped.slice(0, MAX_LISTED);
    out.errors = out.errors.slice(0, 1000);
    out.finishedAt = ctx.now().toISOString();
    return out;
  };
  const target = jobTarget(job);
  const refusal =
    typeof target === "string"
      ? target
      : !job.params
        ? "a cleanup job needs params"
        : job.action === "trash" && onlyDeleted(job)
          ? `${job.recipe ?? job.custom?.rootKey} is only ever deleted (the trash would free nothing): a job to trash it is refused`
          : null;
  if (refusal !== null || typeof target === "string" || !job.params) {
    out.errors.push({ path: "", message: refusal ?? "" });
    ctx.log.write(job.id, "refused", "", 0, out.errors[0].message);
    return finish("failed");
  }
  const nowSec = Math.floor(ctx.now().getTime() / 1000);
  const found = await findJobUnits(job, target, { ...ctx, nowSec });
  out.errors.push(...found.errors);
  out.skipped.push(...found.refused);

  const facts = ctx.guardFacts?.() ?? { home: ctx.home, running: runningPrograms(), startSec: workspaceStartSec() };
  const blocked = recipeBlocked(
    RECIPES.find((r) => r.id === job.recipe),
    facts,
  );
  if (blocked) {
    for (const u of found.roots.flatMap((r) => r.units))
      out.skipped.push({ path: u.path, bytes: u.bytes, reason: "open" });
    ctx.log.write(job.id, "skipped-open", "", 0, blocked);
    out.logTail = ctx.log.lines();
    return finish("done");
  }

  // plan each root (a cap is per root), then the job's caps over all of them
  const params = withRecipeFloor(job.recipe, job.params);
  const chosen: JobUnit[] = [];
  for (const r of found.roots) {
    const p = plan(r.units, { params, nowSec, minAgeHours: job.minAgeHours });
    chosen.push(...p.selected);
    for (const s of p.skipped) out.skipped.push({ path: s.unit.path, bytes: s.unit.bytes, reason: s.reason });
  }
  const capped = capJob(chosen, job.limits.maxUnits, job.limits.maxBytes);
  for (const s of capped.skipped) out.skipped.push({ path: s.unit.path, bytes: s.unit.bytes, reason: s.reason });
  let selected = capped.selected;
  ctx.log.write(
    job.id,
    job.dryRun ? "plan-dry-run" : "plan",
    "",
    selected.reduce((s, u) => s + u.bytes, 0),
    `${selected.length} units, ${job.action}`,
  );
  await ctx.afterPlan?.(selected);

  let trash: RootHandle | null = null;
  let manifest: Manifest | null = null;
  if (!job.dryRun && selected.length > 0) {
    trash = openJobTrash(ctx.home, job.id);
    // a rename cannot leave its file system: trash from another one is refused (a delete removes in place)
    if (job.action === "trash") {
      const t = trash;
      for (const key of new Set(selected.filter((u) => u.root.dev !== t.dev).map((u) => u.root.abs))) {
        const message = `the trash (${TRASH_DIR}) is on another file system than ${path.relative(ctx.home, key)}: trash refused`;
        out.errors.push({ path: path.relative(ctx.home, key), message });
        ctx.log.write(job.id, "error", path.relative(ctx.home, key), 0, message);
      }
      selected = selected.filter((u) => u.root.dev === t.dev);
    }
    const created = ctx.now();
    const expires = job.action === "trash" ? new Date(created.getTime() + job.trashDays * 86_400_000) : created;
    manifest = {
      jobId: job.id,
      action: job.action,
      createdAt: created.toISOString(),
      expiresAt: expires.toISOString(),
      complete: false,
      units: selected.map(manifestUnit),
    };
    writeManifest(trash.abs, manifest); // before the first rename: an interrupted job is recovered from it
  }
  const open = selected.length ? (ctx.openFiles ?? readOpenFiles)() : null;
  const verb = job.action === "trash" ? "trashed" : "deleted";
  let attempts = 0;
  let failures = 0;
  let lastProgress = jobStart;
  const acted: JobUnit[] = [];

  for (let i = 0; i < selected.length; i++) {
    const u = selected[i];
    if ((i > 0 && i % PROGRESS_EVERY_UNITS === 0) || Date.now() - lastProgress > PROGRESS_EVERY_MS) {
      lastProgress = Date.now();
      if (await ctx.progress()) {
        ctx.log.write(job.id, "stopped", "", 0, `cancelled or lease lost after ${i} of ${selected.length} units`);
        break;
      }
    }
    if (failures >= job.limits.minErrors && (failures * 100) / attempts > job.limits.errorPct) {
      ctx.log.write(
        job.id,
        "stopped",
        "",
        0,
        `error rate ${failures} of ${attempts}: the remaining ${selected.length - i} units are skipped`,
      );
      for (const rest of selected.slice(i))
        out.skipped.push({ path: rest.path, bytes: rest.bytes, reason: "error-rate" });
      break;
    }
    const skip = recheck(u, open!);
    if (skip) {
      out.skipped.push({ path: u.path, bytes: u.bytes, reason: skip.reason });
      ctx.log.write(job.id, `skipped-${skip.reason}`, u.path, u.bytes, skip.message);
      continue;
    }
    if (job.dryRun) {
      out.units.push({
        path: u.path,
        bytes: u.bytes,
        action: job.action === "trash" ? "would-trash" : "would-delete",
        newestMtime: iso(u.newest),
      });
      ctx.log.write(job.id, `would-${job.action}`, u.path, u.bytes);
      continue;
    }
    attempts++;
    try {
      act(job, u, trash!, ctx.home);
      acted.push(u);
      out.units.push({
        path: u.path,
        bytes: u.bytes,
        action: verb,
        newestMtime: iso(u.newest),
        ...(job.action === "trash" ? { trashPath: `${TRASH_DIR}/${job.id}/${u.path}` } : {}),
      });
      ctx.log.write(job.id, verb, u.path, u.bytes);
    } catch (err) {
      failures++;
      const message = (err as Error).message.slice(0, 500);
      out.errors.push({ path: u.path, message });
      ctx.log.write(job.id, "error", u.path, u.bytes, message);
    }
  }
  out.unitsActed = out.units.length;
  out.bytesActed = out.units.reduce((s, x) => s + x.bytes, 0);

  if (trash && manifest) {
    if (job.action === "trash" && acted.length)
      writeManifest(trash.abs, { ...manifest, units: acted.map(manifestUnit), complete: true });
    else removeTree(trash.abs, trash.dev); // a delete job's staging, or a trash job that moved nothing
  }
  out.logTail = ctx.log.lines();
  return finish(out.errors.length && !out.units.length ? "failed" : "done");
}

/** The unit's state right before acting: null when it may go, else why not. */
function recheck(u: JobUnit, open: OpenFiles): { reason: "changed" | "outside-root" | "open"; message: string } | null {
  if (!u.measured) return { reason: "changed", message: "not measured" };
  let now;
  try {
    now = measure(u.root, u.topsInRoot);
  } catch (err) {
    return {
      reason: err instanceof Refused && err.reason === "outside-root" ? "outside-root" : "changed",
      message: (err as Error).message,
    };
  }
  const diff = difference(u.measured, now);
  if (diff) return { reason: "changed", message: diff };
  const busy = now.entries.find((e) => open.has(e.dev, e.ino));
  if (busy) return { reason: "open", message: `${busy.rel} is open or locked by a process` };
  return null;
}

/** Moves the unit into the job's trash folder (one rename per top); a delete then removes it from there. */
function act(job: ClaimedJob, u: JobUnit, trash: RootHandle, home: string) {
  for (const t of u.topsInRoot) checkParents(u.root, t); // once more, right before the rename
  // a read-only folder (Go's module cache) cannot move into the trash to be deleted: only a delete changes its mode
  if (job.action === "delete") for (const t of u.topsInRoot) makeFolderWritable(path.join(u.root.abs, t));
  if (trash.dev !== u.root.dev) {
    // (a trash job never gets here) no staging on another file system: remove in place, entry by entry
    return removeAll(
      u.topsInRoot.map((t) => path.join(u.root.abs, t)),
      u.root.dev,
    );
  }
  moveIn(home, trash, u.tops);
  if (job.action === "delete")
    removeAll(
      u.tops.map((t) => path.join(trash.abs, t)),
      trash.dev,
    );
}

function removeAll(paths: string[], dev: bigint) {
  let remaining = 0;
  let first: string | null = null;
  for (const p of paths) {
    const r = removeTree(p, dev);
    remaining += r.remaining;
    first ??= r.error;
  }
  if (remaining)
    throw new Error(`${remaining} entries could not be removed (${first}); they remain in ${path.dirname(paths[0])}`);
}

const manifestUnit = (u: JobUnit) => ({ path: u.path, tops: u.tops, bytes: u.bytes });
const iso = (sec: number) => new Date(sec * 1000).toISOString();
