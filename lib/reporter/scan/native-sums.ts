// The native scanner's sums (lib/reporter/scan/native/scan.c, "Summaries"): the scanner adds up, folder by folder,
// every entry the reader would treat like its neighbours, and prints on its own only what the rules may tell
// apart by name. What those are comes from each root's rules (RootTally.needs); this file holds the shapes,
// the time bins that stand for the report's age buckets and the recipes' age steps, and the scanner's arguments.

import { AGE_BUCKET_DAYS, AGE_BUCKETS, type AgeBucket } from "@/lib/report-format/constants";
import { RECIPE_AGE_STEPS_DAYS } from "@/lib/catalog/recipes";
import { ageStep } from "../cleanup/age-steps";

/**
 * Entries the reader needs by name: in folders `depth` segments below the root (-1: any), of `kind` (f: not a
 * folder, d: a folder, a: any), whose name starts with `pre`, ends with `suf` and holds `has` (all empty: every
 * such entry). A superset is safe: it only costs the reader an entry.
 */
export type NameNeed = { depth: number; kind: "f" | "d" | "a"; pre: string; suf: string; has: string };

/**
 * What a root's rules need: names, and how deep a folder must be before its rules are its parent's
 * (`foldBelow`: deeper folders may be summed into their parent, unless named in `specials`; Infinity: none).
 */
export type Needs = { names: NameNeed[]; foldBelow: number; specials: string[] };

export const noNeeds = (): Needs => ({ names: [], foldBelow: 0, specials: [] });

/** All of them at once: the union of names and specials, the deepest fold. */
export function mergeNeeds(list: readonly Needs[]): Needs {
  const out = noNeeds();
  const seen = new Set<string>();
  for (const n of list) {
    for (const x of n.names) {
      const key = JSON.stringify(x);
      if (!seen.has(key)) {
        seen.add(key);
        out.names.push(x);
      }
    }
    out.foldBelow = Math.max(out.foldBelow, n.foldBelow);
    for (const s of n.specials) if (!out.specials.includes(s)) out.specials.push(s);
  }
  return out;
}

/**
 * A folder's sums as the scanner prints them (blocks of 512 bytes; mtimes in whole seconds): its entries not
 * printed on their own, with those of the folders summed into it. Per time bin that is not empty (`bins` of
 * them): the files, their blocks, and the folders' blocks.
 */
export type FolderSums = {
  dev: number;
  files: number;
  fileBlocks: number;
  fileSize: number;
  dirs: number;
  dirBlocks: number;
  dirSize: number;
  oldest: number;
  newest: number;
  /** The newest mtime of any entry. */
  latest: number;
  bins: number;
  bin: number[];
  binFiles: number[];
  binFileBlocks: number[];
  binDirBlocks: number[];
};

export const emptySums = (): FolderSums => ({
  dev: 0,
  files: 0,
  fileBlocks: 0,
  fileSize: 0,
  dirs: 0,
  dirBlocks: 0,
  dirSize: 0,
  oldest: 0,
  newest: 0,
  latest: 0,
  bins: 0,
  bin: [],
  binFiles: [],
  binFileBlocks: [],
  binDirBlocks: [],
});

const DAY = 86_400;

/**
 * The time bins: mtime bounds (descending) at every age bucket's start and every recipe age step's, so that
 * each bin falls in one bucket and one step. Bin k holds the mtimes above bounds[k] (and not above an earlier
 * bound); the last bin, those above none.
 */
export class TimeBins {
  /**
   * The age buckets' bounds, in the order of AGE_BUCKETS: an mtime above ageBounds[i] (and no earlier one) is in
   * bucket i, one above none is "older". The aggregator buckets each entry it is given by the same bounds.
   */
  readonly ageBounds: number[];
  readonly bounds: number[];
  /** Per bin, the age bucket and the recipe age step (ageStep's index) of its mtimes. */
  readonly bucket: AgeBucket[];
  readonly step: number[];

  constructor(nowSec: number) {
    // a bucket holds mtime > now - days; a step holds age <= days, that is mtime >= now - days (whole seconds)
    this.ageBounds = AGE_BUCKETS.filter((b) => b !== "older").map((b) => Math.floor(nowSec - AGE_BUCKET_DAYS[b] * DAY));
    const stepBounds = RECIPE_AGE_STEPS_DAYS.map((d) => Math.ceil(nowSec - d * DAY) - 1);
    this.bounds = [...new Set([...this.ageBounds, ...stepBounds])].sort((a, b) => b - a);
    const n = this.bounds.length;
    // one mtime of each bin stands for all of it: every bound of a bucket or step is a bound of the bins
    const sample = (k: number) => (k < n ? this.bounds[k] + 1 : this.bounds[n - 1]);
    this.bucket = Array.from({ length: n + 1 }, (_, k) => {
      const i = this.ageBounds.findIndex((b) => sample(k) > b);
      return i < 0 ? "older" : AGE_BUCKETS[i];
    });
    this.step = Array.from({ length: n + 1 }, (_, k) => ageStep(nowSec - sample(k)));
  }
}

/** The scanner's arguments for its sums, for every root: the time bins and how many largest files a root lists. */
export function sumsArgs(bins: TimeBins, top: number): string[] {
  return ["-t", bins.bounds.join(","), "-n", String(top)];
}

/** The scanner's arguments for one root's sums (after its -r): what its rules need. */
export function rootSumsArgs(needs: Needs): string[] {
  const args: string[] = [];
  if (Number.isFinite(needs.foldBelow)) args.push("-m", String(needs.foldBelow));
  for (const s of needs.specials) args.push("-g", s);
  for (const n of needs.names) args.push("-e", `${n.depth},${n.kind},${n.pre}/${n.suf}/${n.has}`);
  return args;
}

/**
 * What the native scanner is told for its sums: `args` once, `root(k)` before root k's start points (one array
 * for the roots whose rules are the same).
 */
export type ScannerSums = { args: string[]; root: (k: number) => string[] };
