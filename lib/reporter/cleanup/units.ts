// A job's units: the roots its recipe (or custom rule) applies to, scanned like a report (the same unit
// definitions, unit-tally.ts), then each unit that could be selected measured with lstat (every entry's
// device, inode, size, mtime and ctime), which is what the re-check before acting compares.
//
// A unit's age is the newest mtime of its entries, as the report's age steps (and so the preview) count it,
// and as the agents' own retention does. Not the ctime: on Kubernetes workspaces with fsGroup (Coder's own
// template), kubelet chowns and chmods every entry of the home at each pod start, and a template that runs
// `chown -R` at start does the same; either sets every ctime to the start. A run may opt in to count ctimes
// (countStatusChanges), where files were restored from a backup with their old mtimes.

import path from "node:path";
import { RECIPES, type RecipeId } from "@/lib/catalog/recipes";
import { cleanable } from "@/lib/catalog/recipe-roots";
import type { ClaimedJob } from "@/lib/cleanup/protocol";
import type { Env } from "../env";
import { isInside, joinRel } from "../scan/paths";
import { discoverRoots, type ReporterConfig, type RootSpec } from "../scan/roots";
import { scanRoots, type ScannerChoice } from "../scan/scan-roots";
import { Refused, measure, openRoot, type Measured, type RootHandle } from "./fs-safe";
import type { PlanUnit } from "./plan";
import type { ProtectList } from "./protect";
import type { Target } from "./target";
import { recipesFor, targetProblem } from "./targets";

/** A unit ready for planning. `measured` is null for units the scan already shows too young to select. */
export type JobUnit = PlanUnit & {
  /** Relative to home (path is relative to home too). */
  tops: string[];
  /** Relative to the root. */
  topsInRoot: string[];
  root: RootHandle;
  rootKey: string;
  measured: Measured | null;
};

export type FoundRoots = {
  roots: { spec: RootSpec; units: JobUnit[] }[];
  /** Units that could not be measured safely. */
  refused: { path: string; bytes: number; reason: "outside-root" }[];
  errors: { path: string; message: string }[];
};

export type FindOptions = {
  home: string;
  env: Env;
  config: ReporterConfig | null;
  protect: ProtectList;
  nowSec: number;
  scanner?: ScannerChoice;
};

/** The job's target, or a reason why there is none. */
export function jobTarget(job: Pick<ClaimedJob, "recipe" | "custom">): Target | string {
  let t: Target | null = null;
  if (job.recipe) {
    const r = RECIPES.find((x) => x.id === job.recipe);
    if (r) t = { id: r.id as RecipeId, unit: r.unit, glob: r.glob, ...(r.parts && { parts: r.parts }) };
  } else if (job.custom) t = { id: "custom", unit: job.custom.unit, glob: job.custom.glob };
  if (!t) return `unknown recipe ${job.recipe ?? "(none)"}`;
  return targetProblem(t) ?? t;
}

export async function findJobUnits(
  job: Pick<ClaimedJob, "recipe" | "custom" | "params" | "countStatusChanges">,
  target: Target,
  o: FindOptions,
): Promise<FoundRoots> {
  const specs = discoverRoots({ home: o.home, env: o.env, config: o.config });
  const chosen = specs.filter((s) =>
    job.recipe
      ? recipesFor(s).some((t) => t.id === job.recipe)
      : s.key === job.custom?.rootKey && cleanable({ kind: s.kind, path: s.rel }),
  );
  const out: FoundRoots = { roots: [], refused: [], errors: [] };
  if (chosen.some((s) => s.kind === "script-data") && job.recipe && !o.env.CODER_SCRIPT_DATA_DIR) {
    // without it every script data folder looks orphaned, the current one too
    out.errors.push({
      path: "",
      message: "CODER_SCRIPT_DATA_DIR is not set: the current script data folder is unknown, so none is removed",
    });
    return out;
  }
  // roots nested in a chosen one are scanned too (no units of theirs), so the outer root leaves them out
  const nested = specs.filter((s) => !chosen.includes(s) && chosen.some((c) => isInside(s.abs, c.abs)));
  const scanSpecs = specs
    .filter((s) => chosen.includes(s) || nested.includes(s))
    .map((s) => ({ ...s, targets: chosen.includes(s) ? [target] : [] }));
  const scan = await scanRoots(scanSpecs, o.nowSec, {
    home: o.home,
    ...(o.scanner ?? { mode: "auto" }),
    collect: true,
  });
  const olderThan = job.params?.olderThanDays;
  for (const spec of chosen) {
    const found = scan.found.get(spec.key)?.get(target.id) ?? [];
    if (found.length === 0) continue;
    // a "." unit is the root folder itself: it is acted on from the folder that holds it
    const whole = target.glob === ".";
    let root: RootHandle;
    try {
      root = openRoot(whole ? path.dirname(spec.abs) : spec.abs);
    } catch (err) {
      out.errors.push({ path: spec.rel, message: (err as Error).message });
      continue;
    }
    const units: JobUnit[] = [];
    for (const f of found) {
      const tops = whole ? [spec.rel] : f.tops.map((t) => joinRel(spec.rel, t));
      const topsInRoot = whole ? [path.basename(spec.abs)] : f.tops;
      const base = {
        path: tops[0] === spec.rel ? spec.rel : joinRel(spec.rel, f.path),
        tops,
        topsInRoot,
        root,
        rootKey: spec.key,
        protected: o.protect.covers(tops),
      };
      // counted ctimes only make a unit younger: one the scan's mtimes already show too young for
      // olderThanDays cannot be selected, and needs no second look
      if (olderThan !== undefined && o.nowSec - f.mtime <= olderThan * 86_400) {
        units.push({ ...base, bytes: f.bytes, newest: f.mtime, measured: null });
        continue;
      }
      try {
        const m = measure(root, topsInRoot);
        const newest = job.countStatusChanges ? Math.max(m.newest, m.newestChange) : m.newest;
        units.push({ ...base, bytes: m.bytes, newest, measured: m });
      } catch (err) {
        if (err instanceof Refused && err.reason === "outside-root")
          out.refused.push({ path: base.path, bytes: f.bytes, reason: "outside-root" });
        else if (!(err instanceof Refused)) out.errors.push({ path: base.path, message: (err as Error).message });
        // "gone": removed since the scan, nothing to do
      }
    }
    out.roots.push({ spec, units });
  }
  return out;
}
