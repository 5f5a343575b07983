// One root's running figures while its entries stream in, and the report's StorageRoot made from them.

import { AGE_BUCKETS, CATEGORIES, type Category } from "@/lib/report-format/constants";
import { withWirePath } from "@/lib/report-format/path-encoding";
import type { LeftoverEntry, StorageRoot } from "@/lib/report-format/schema";
import type { ProtectList } from "../cleanup/protect";
import { recipesFor } from "../cleanup/targets";
import { targetTally, type TargetTally } from "../cleanup/target-tally";
import { PROJECT_DEP_NAMES, SELF_NESTING_NAMES } from "@/lib/report-format/home-kinds";
import { FolderFactsCache, type FolderFacts } from "./folder-facts";
import { HomeTally } from "./home-tally";
import { mergeNeeds, type FolderSums, type Needs, type TimeBins } from "./native-sums";
import { groupDefault } from "./rule-groups";
import type { RootSpec } from "./roots";
import { CategoryMatcher, SessionMatcher } from "./rules";
import type { DirSize, Unit } from "./sizes";
import { TopN } from "./top-n";

export const LARGEST_PER_ROOT = 20;
/** Per root, at most this many folders and session units are sized: memory stays bounded on any tree. */
const MAX_UNIT_KEYS = 200_000;

type CategoryBreakdown = NonNullable<StorageRoot["categories"]>;
type AgeBreakdown = NonNullable<StorageRoot["ages"]>;
export type SizeAndCount = NonNullable<CategoryBreakdown[Category]>;
type Leftover = Omit<LeftoverEntry, "mtime"> & { mtime: number };
/** What the units of recipes need besides the entries: the clock, the owner's protect list, and for a job the list. */
export type UnitOptions = { nowSec: number; protect: ProtectList | null; collect: boolean };

export class RootTally {
  bytes = 0;
  apparent = 0;
  files = 0;
  dirs = 0;
  oldest = Infinity;
  newest = -Infinity;
  unreadable = 0;
  present = false;
  readonly cats = zeros<Category>(CATEGORIES) as Required<CategoryBreakdown>;
  readonly ages = zeros(AGE_BUCKETS) as Required<AgeBreakdown>;
  readonly top = new TopN(LARGEST_PER_ROOT);
  readonly dirSizes = new Map<string, DirSize>();
  readonly units = new Map<string, Unit>();
  readonly leftoverNames: ReadonlySet<string> | null;
  readonly leftovers: Leftover[] = [];
  readonly category: CategoryMatcher;
  readonly sessions: SessionMatcher;
  readonly folders: FolderFactsCache;
  /** The units of each recipe that applies to the root (or of a job's target). */
  readonly targets: TargetTally[];
  /** The whole home's root sizes its folders three levels deep and keeps what home-tally.ts adds. */
  readonly sizedDepth: number;
  readonly home: HomeTally | null;

  constructor(
    readonly spec: RootSpec,
    units: UnitOptions,
  ) {
    this.targets = (spec.targets ?? recipesFor(spec)).map((t) =>
      targetTally(t, spec.rel, units.nowSec, units.protect, units.collect),
    );
    this.category = new CategoryMatcher(spec.categoryRules);
    this.sessions = new SessionMatcher(spec.sessionRules);
    this.leftoverNames = spec.leftoverNames?.length ? new Set(spec.leftoverNames) : null;
    this.sizedDepth = spec.wholeHome ? 3 : 2;
    this.home = spec.wholeHome ? new HomeTally() : null;
    this.folders = new FolderFactsCache(this);
  }

  dirSize(key: string): DirSize | null {
    let d = this.dirSizes.get(key);
    if (!d) {
      if (this.dirSizes.size >= MAX_UNIT_KEYS) return null;
      d = { bytes: 0, mtime: 0 };
      this.dirSizes.set(key, d);
    }
    return d;
  }

  /** One link of a file with `nlink` > 1 links: what deleting a unit would free depends on where the others are. */
  link(rel: string, bytes: number, mtime: number, nlink: number, inode: string) {
    if (rel === "" || this.targets.length === 0) return;
    const slash = rel.lastIndexOf("/");
    const f = this.folders.of(slash < 0 ? "" : rel.slice(0, slash));
    for (let k = 0; k < this.targets.length; k++)
      this.targets[k].link(f.rec[k], f.parent, rel.slice(slash + 1), bytes, mtime, nlink, inode);
  }

  /** The age bucket of a file modified at `mtime`, given the buckets' bounds (Aggregator). */
  age(mtime: number, b: readonly number[]): SizeAndCount {
    return mtime > b[0]
      ? this.ages["1d"]
      : mtime > b[1]
        ? this.ages["7d"]
        : mtime > b[2]
          ? this.ages["30d"]
          : mtime > b[3]
            ? this.ages["90d"]
            : this.ages.older;
  }

  /**
   * A folder's sums from the native scanner (the folder whose facts are `f`): what Aggregator.entryAt does for
   * each of its entries, which no name test of the root tells apart and none of which is among the largest.
   */
  addSums(f: FolderFacts, s: FolderSums, bins: TimeBins) {
    const bytes = (s.fileBlocks + s.dirBlocks) * 512;
    this.bytes += bytes;
    this.apparent += s.fileSize + s.dirSize;
    this.files += s.files;
    this.dirs += s.dirs;
    const c = this.cats[groupDefault(f.cat) ?? "other"];
    c.bytes += bytes;
    c.files += s.files;
    for (let k = 0; k < s.bins; k++) {
      const age = this.ages[bins.bucket[s.bin[k]]];
      age.bytes += (s.binFileBlocks[k] + s.binDirBlocks[k]) * 512;
      age.files += s.binFiles[k];
    }
    if (s.files > 0) {
      if (s.oldest < this.oldest) this.oldest = s.oldest;
      if (s.newest > this.newest) this.newest = s.newest;
    }
    if (f.d1 !== null) f.d1.bytes += bytes;
    if (f.d2 !== null) f.d2.bytes += bytes;
    if (f.d3 !== null) f.d3.bytes += bytes;
    if (f.deps !== null) f.deps.bytes += bytes;
    if (f.copy !== null) f.copy.bytes += bytes;
    for (let k = 0; k < f.nUnits; k++) f.units[k].bytes += bytes;
    const targets = this.targets;
    for (let k = 0; k < targets.length; k++) targets[k].sums(f.rec[k], bytes, s.latest, s, bins.step);
  }

  unit(key: string): Unit | null {
    let u = this.units.get(key);
    if (!u) {
      if (this.units.size >= MAX_UNIT_KEYS) return null;
      u = { bytes: 0, mtime: 0, filePath: null };
      this.units.set(key, u);
    }
    return u;
  }

  /**
   * What this root's figures need of the native scanner's sums: the entries its rules tell apart by name, and
   * the folders at depth 1 and 2 (the whole home's to 3), sized on their own (their entries at the depth above
   * are folders by name); the whole home's also the folders home-tally.ts counts, at any depth.
   */
  needs(): Needs {
    const depths = Array.from({ length: this.sizedDepth }, (_, depth) => depth);
    const own: Needs = {
      names: depths.map((depth) => ({ depth, kind: "d" as const, pre: "", suf: "", has: "" })),
      foldBelow: this.sizedDepth,
      specials: [],
    };
    if (this.home !== null) {
      for (const pre of [...PROJECT_DEP_NAMES, ...SELF_NESTING_NAMES]) {
        own.names.push({ depth: -1, kind: "d", pre, suf: "", has: "" });
        own.specials.push(pre);
      }
    }
    for (const name of this.leftoverNames ?? []) own.names.push({ depth: 0, kind: "f", pre: name, suf: "", has: "" });
    return mergeNeeds([own, this.category.needs(), this.sessions.needs(), ...this.targets.map((t) => t.needs())]);
  }

  /** The report's root. Folders and sessions join the largest entries only now, when their sizes are complete. */
  toStorageRoot(): StorageRoot {
    const unitFolders = new Set<string>();
    for (const [key, u] of this.units) {
      if (key.startsWith("\0")) {
        const path = key.slice(1);
        unitFolders.add(path);
        this.top.add({ path, bytes: u.bytes, mtime: u.mtime, type: "session" });
      } else if (u.filePath !== null) {
        unitFolders.add(key);
        this.top.add({ path: u.filePath, bytes: u.bytes, mtime: u.mtime, type: "session" });
      }
    }
    for (const [path, d] of this.dirSizes) {
      if (!unitFolders.has(path)) this.top.add({ path, bytes: d.bytes, mtime: d.mtime, type: "dir" });
    }
    const s = this.spec;
    const root: StorageRoot = {
      key: s.key,
      kind: s.kind,
      agent: s.agent,
      path: s.rel,
      bytes: this.bytes,
      apparentBytes: this.apparent,
      files: this.files,
      dirs: this.dirs,
      oldestMtime: this.files > 0 ? iso(this.oldest) : null,
      newestMtime: this.files > 0 ? iso(this.newest) : null,
      categories: nonZero(this.cats),
      ages: nonZero(this.ages),
      largest: this.top.result().map((c) => withWirePath({ ...c, mtime: iso(c.mtime) })),
    };
    if (this.leftovers.length) {
      root.leftovers = this.leftovers
        .sort((a, b) => (a.path < b.path ? -1 : 1))
        .map((l) => withWirePath({ ...l, mtime: iso(l.mtime) }));
    }
    if (s.kind === "script-data") root.orphaned = !!s.orphaned;
    const recipes: NonNullable<StorageRoot["recipes"]> = {};
    for (const t of this.targets) if (t.target.id !== "custom") recipes[t.target.id] = t.usage();
    if (this.targets.length) root.recipes = recipes;
    if (this.unreadable) root.unreadable = this.unreadable;
    return root;
  }
}

function zeros<K extends string>(keys: readonly K[]): Record<K, SizeAndCount> {
  return Object.fromEntries(keys.map((k) => [k, { bytes: 0, files: 0 }])) as Record<K, SizeAndCount>;
}

function nonZero<K extends string>(rec: Record<K, SizeAndCount>): Partial<Record<K, SizeAndCount>> {
  const out: Partial<Record<K, SizeAndCount>> = {};
  for (const k of Object.keys(rec) as K[]) if (rec[k].bytes > 0 || rec[k].files > 0) out[k] = rec[k];
  return out;
}

export function iso(sec: number): string {
  const ms = Math.min(Math.max(sec * 1000, -8.64e15), 8.64e15);
  return new Date(ms).toISOString();
}
