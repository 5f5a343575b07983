// The trash: ~/.coder-modules/coder/storage-reporter/trash/<job id>/<path relative to home>, one folder per
// job with its manifest.json (units, original locations, bytes, expiry). Moving a unit in or out is a rename on
// one file system: instant, nothing copied, and reversible. A deleting job uses the same folder as its
// staging area (units are renamed out of their root whole, then removed), so a process killed mid-job leaves
// every unit either in place or whole in the trash, never half of it; the next run finishes the work.

import fs from "node:fs";
import path from "node:path";
import { TRASH_DIR } from "@/lib/catalog/recipes";
import type { JobResult } from "@/lib/cleanup/protocol";
import { writeAtomic } from "../state";
import { Refused, checkRel, ensureParents, openRoot, removeTree, renameAll, type RootHandle } from "./fs-safe";
import type { CleanupLog } from "./log";

export type ManifestUnit = {
  /** The unit's path relative to home (a file+dir unit: its file). */
  path: string;
  /** What was moved, relative to home; each lies at the same path under the job's trash folder. */
  tops: string[];
  bytes: number;
};

export type Manifest = {
  jobId: string;
  /** "delete": the folder is only a staging area, emptied at once (and by the next run if interrupted). */
  action: "trash" | "delete";
  createdAt: string;
  expiresAt: string;
  /** False while the job runs: then some units listed may not have been moved (or only partly). */
  complete: boolean;
  units: ManifestUnit[];
};

type Outcome = JobResult["units"][number];
type Skip = JobResult["skipped"][number];
type JobError = JobResult["errors"][number];

export const JOB_ID_RE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

export function trashRoot(home: string): string {
  return path.join(home, TRASH_DIR);
}

export function jobTrash(home: string, jobId: string): string {
  if (!JOB_ID_RE.test(jobId)) throw new Error(`job id ${JSON.stringify(jobId)} cannot name a trash folder`);
  return path.join(trashRoot(home), jobId);
}

/** The job's manifest; null when absent or damaged (a top that is not a plain relative path damages it). */
export function readManifest(dir: string): Manifest | null {
  try {
    const m = JSON.parse(fs.readFileSync(path.join(dir, "manifest.json"), "utf8")) as Manifest;
    if (!m || !Array.isArray(m.units)) return null;
    for (const u of m.units) for (const t of u.tops) checkRel(t);
    return m;
  } catch {
    return null;
  }
}

export function writeManifest(dir: string, m: Manifest) {
  writeAtomic(path.join(dir, "manifest.json"), JSON.stringify(m));
}

/** The job's trash folder, created, as a root: it must be a real folder on one file system. */
export function openJobTrash(home: string, jobId: string): RootHandle {
  const dir = jobTrash(home, jobId);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  return openRoot(dir);
}

/** Moves a unit's tops (relative to home) into the job's trash folder, all or none. */
export function moveIn(home: string, trash: RootHandle, tops: readonly string[]) {
  for (const t of tops) ensureParents(trash, t);
  renameAll(
    tops.map((t) => path.join(home, t)),
    tops.map((t) => path.join(trash.abs, t)),
  );
}

const exists = (p: string) => fs.lstatSync(p, { throwIfNoEntry: false }) !== undefined;

/**
 * An interrupted job's trash folder made consistent. A unit with some tops moved and the others still in its
 * root was cut between its renames: the moved ones go back (it stays whole where it was). A unit with no top
 * left in its root was moved whole (a delete may have begun removing it in here): it stays, to be purged.
 * The manifest then lists exactly the units that are in the trash.
 */
function recover(home: string, dir: string, m: Manifest, log: CleanupLog) {
  const kept: ManifestUnit[] = [];
  for (const u of m.units) {
    const inTrash = u.tops.map((t) => exists(path.join(dir, t)));
    const inRoot = u.tops.map((t) => exists(path.join(home, t)));
    if (!inTrash.some(Boolean)) continue; // never moved (or already removed)
    if (!inRoot.some(Boolean)) {
      kept.push({ ...u, tops: u.tops.filter((_, i) => inTrash[i]) });
      continue;
    }
    const back = u.tops.filter((_, i) => inTrash[i]);
    try {
      renameAll(
        back.map((t) => path.join(dir, t)),
        back.map((t) => path.join(home, t)),
      );
      log.write(m.jobId, "rolled-back", u.path, u.bytes, "interrupted between the parts of the unit");
    } catch (err) {
      kept.push({ ...u, tops: back }); // cannot go back: keep what is here, restorable by hand
      log.write(
        m.jobId,
        "error",
        u.path,
        u.bytes,
        `interrupted unit could not be moved back: ${(err as Error).message}`,
      );
    }
  }
  const done = { ...m, units: kept, complete: true };
  writeManifest(dir, done);
  return done;
}

/** Removes a job's trash folder, logging each unit as purged. Returns the outcomes. */
export function purgeFolder(
  home: string,
  jobId: string,
  log: CleanupLog,
  why: string,
): { units: Outcome[]; errors: JobError[] } {
  const dir = jobTrash(home, jobId);
  let m = readManifest(dir);
  if (m && !m.complete) m = recover(home, dir, m, log);
  const units: Outcome[] = [];
  const errors: JobError[] = [];
  const st = fs.lstatSync(dir, { bigint: true, throwIfNoEntry: false });
  if (!st || !st.isDirectory()) return { units, errors };
  for (const u of m?.units ?? []) {
    let left = 0;
    for (const t of u.tops) {
      const r = removeTree(path.join(dir, t), st.dev);
      left += r.remaining;
      if (r.error) errors.push({ path: u.path, message: r.error.slice(0, 500) });
    }
    if (left === 0) {
      units.push({ path: u.path, bytes: u.bytes, action: "purged" });
      log.write(jobId, "purged", u.path, u.bytes, why);
    }
  }
  const r = removeTree(dir, st.dev);
  if (r.error) errors.push({ path: path.relative(home, dir), message: r.error.slice(0, 500) });
  return { units, errors };
}

/** Each run: empties what expired (and deleting jobs' staging left by an interrupted run). */
export function sweepTrash(home: string, now: Date, log: CleanupLog) {
  let names: string[] = [];
  try {
    names = fs.readdirSync(trashRoot(home)).filter((n) => JOB_ID_RE.test(n));
  } catch {
    return;
  }
  for (const name of names) {
    const dir = path.join(trashRoot(home), name);
    let m = readManifest(dir);
    if (m && !m.complete) m = recover(home, dir, m, log);
    if (!m || m.action === "delete" || Date.parse(m.expiresAt) <= now.getTime() || m.units.length === 0) {
      purgeFolder(home, name, log, !m ? "no manifest" : m.action === "delete" ? "interrupted delete" : "expired");
    }
  }
}

/** A restore job: moves the units of `jobId`'s trash back, each whole, where nothing took their place. */
export function restoreFolder(
  home: string,
  jobId: string,
  dryRun: boolean,
  log: CleanupLog,
): { units: Outcome[]; skipped: Skip[]; errors: JobError[] } {
  const dir = jobTrash(home, jobId);
  let m = readManifest(dir);
  const out = { units: [] as Outcome[], skipped: [] as Skip[], errors: [] as JobError[] };
  if (!m) {
    out.errors.push({ path: path.relative(home, dir), message: "no trash for this job (purged or expired?)" });
    return out;
  }
  if (!m.complete) m = recover(home, dir, m, log);
  const homeRoot = openRoot(home);
  const trash = openRoot(dir);
  const left: ManifestUnit[] = [];
  for (const u of m.units) {
    try {
      if (u.tops.some((t) => exists(path.join(home, t))))
        throw new Refused("changed", "its original location is occupied now");
      if (!u.tops.every((t) => exists(path.join(trash.abs, t))))
        throw new Refused("gone", "not (all) in the trash any more");
      if (!dryRun) {
        for (const t of u.tops) ensureParents(homeRoot, t);
        renameAll(
          u.tops.map((t) => path.join(trash.abs, t)),
          u.tops.map((t) => path.join(home, t)),
        );
      }
      out.units.push({ path: u.path, bytes: u.bytes, action: "restored" });
      log.write(m.jobId, dryRun ? "would-restore" : "restored", u.path, u.bytes);
      if (dryRun) left.push(u);
    } catch (err) {
      left.push(u);
      if (err instanceof Refused && err.reason !== "gone")
        out.skipped.push({ path: u.path, bytes: u.bytes, reason: err.reason });
      else out.errors.push({ path: u.path, message: (err as Error).message.slice(0, 500) });
      log.write(m.jobId, "not-restored", u.path, u.bytes, (err as Error).message);
    }
  }
  if (!dryRun) {
    if (left.length) writeManifest(dir, { ...m, units: left });
    else removeTree(dir, trash.dev);
  }
  return out;
}
