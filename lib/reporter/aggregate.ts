// Turns a stream of entries (from `find` or from the Node walker, in any order) into the report's numbers for
// each root. Nothing here depends on the order entries arrive in, so two `find` processes can feed it at once
// and both scanners give identical results.

import type { CategoryRule, SessionRule } from "@/lib/catalog/agents";
import { AGE_BUCKETS, CATEGORIES, LIMITS, type AgeBucket, type Category, type RootKind } from "@/lib/report/constants";
import type { LargestEntry, StorageRoot } from "@/lib/report/schema";
import { CategoryMatcher, SessionMatcher } from "./rules";

export const LARGEST_PER_ROOT = 20;
/** Folders at this depth or less (1 = the root's children) are candidates for the largest entries. */
export const LARGEST_DIR_DEPTH = 2;
const MAX_DEFERRED = 300_000;
const MAX_SEEN_INODES = 2_000_000;
const MAX_UNIT_KEYS = 200_000;

export type RootSpec = {
  key: string;
  kind: RootKind;
  agent: string;
  /** Absolute path. */
  abs: string;
  /** Relative to home. */
  rel: string;
  orphaned?: boolean;
  categoryRules: readonly CategoryRule[];
  sessionRules: readonly SessionRule[];
};

export type ScanError = { path: string; code: string; message: string };

/** Collects scan errors, keeping at most LIMITS.errors of them (and counting the rest). */
export class ErrorLog {
  readonly items: ScanError[] = [];
  dropped = 0;
  add(path: string, code: string, message: string) {
    if (this.items.length >= LIMITS.errors) {
      this.dropped++;
      return;
    }
    this.items.push({ path: path.slice(0, LIMITS.pathLength), code: code.slice(0, 50), message: message.slice(0, 500) });
  }
}

type SizeAndCount = { bytes: number; files: number };
type Candidate = { path: string; bytes: number; mtime: number; type: LargestEntry["type"] };
type DirSize = { bytes: number; mtime: number };
type Unit = { bytes: number; mtime: number; filePath: string | null; fileBytes: number };

/** The N largest by bytes; ties broken by path so the result never depends on arrival order. */
class TopN {
  private items: Candidate[] = [];
  private floor = 0;
  private floorPath = "";
  private full = false;
  constructor(private readonly n: number) {}
  /** Whether an entry of this size and path would enter the list (check before building the candidate). */
  wants(bytes: number, path: string): boolean {
    if (bytes <= 0) return false;
    if (!this.full) return true;
    return bytes > this.floor || (bytes === this.floor && path < this.floorPath);
  }
  add(c: Candidate) {
    if (!this.wants(c.bytes, c.path)) return;
    this.items.push(c);
    if (this.items.length >= this.n * 8) this.trim();
  }
  private trim() {
    this.items.sort((a, b) => b.bytes - a.bytes || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    if (this.items.length >= this.n) {
      this.items.length = this.n;
      this.full = true;
      this.floor = this.items[this.n - 1].bytes;
      this.floorPath = this.items[this.n - 1].path;
    }
  }
  result(): Candidate[] {
    this.trim();
    return this.items;
  }
}

const DAY = 86_400;

class RootAcc {
  bytes = 0;
  apparent = 0;
  files = 0;
  dirs = 0;
  oldest = Infinity;
  newest = -Infinity;
  unreadable = 0;
  present = false;
  readonly cats: Record<Category, SizeAndCount>;
  readonly ages: Record<AgeBucket, SizeAndCount>;
  readonly top = new TopN(LARGEST_PER_ROOT);
  readonly dirSizes = new Map<string, DirSize>();
  readonly units = new Map<string, Unit>();
  readonly category: CategoryMatcher;
  readonly sessions: SessionMatcher;
  // last-used caches for the per-entry folder accounting
  k1: string | null = null;
  d1: DirSize | null = null;
  k2: string | null = null;
  d2: DirSize | null = null;

  constructor(readonly spec: RootSpec) {
    this.cats = Object.fromEntries(CATEGORIES.map((c) => [c, { bytes: 0, files: 0 }])) as Record<Category, SizeAndCount>;
    this.ages = Object.fromEntries(AGE_BUCKETS.map((a) => [a, { bytes: 0, files: 0 }])) as Record<AgeBucket, SizeAndCount>;
    this.category = new CategoryMatcher(spec.categoryRules);
    this.sessions = new SessionMatcher(spec.sessionRules);
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

  unit(key: string): Unit | null {
    let u = this.units.get(key);
    if (!u) {
      if (this.units.size >= MAX_UNIT_KEYS) return null;
      u = { bytes: 0, mtime: 0, filePath: null, fileBytes: 0 };
      this.units.set(key, u);
    }
    return u;
  }
}

type Deferred = { root: number; rel: string; bytes: number; size: number; mtime: number; key: string };

export class Aggregator {
  private readonly roots: RootAcc[];
  private deferred: Deferred[] = [];
  private seen: Set<string> | null = null;
  private dedupOff = false;
  /** Age boundaries, in seconds since the epoch: an mtime after bounds[i] falls in bucket i. */
  private readonly bounds: number[];

  constructor(
    specs: readonly RootSpec[],
    /** collectedAt in seconds. */
    readonly nowSec: number,
    readonly errors: ErrorLog,
  ) {
    this.roots = specs.map((s) => new RootAcc(s));
    this.bounds = AGE_BUCKETS.filter((b) => b !== "older").map((b) => nowSec - ({ "1d": 1, "7d": 7, "30d": 30, "90d": 90 } as const)[b as "1d"] * DAY);
  }

  get specs(): RootSpec[] {
    return this.roots.map((r) => r.spec);
  }

  /** Marks a root as existing (its own entry arrives through `entry` with rel ""). */
  present(root: number) {
    this.roots[root].present = true;
  }

  unreadable(root: number, relToHome: string, code: string, message: string) {
    this.roots[root].unreadable++;
    this.errors.add(relToHome, code, message);
  }

  /**
   * One entry of root `root`. `rel` is relative to the root ("" for the root itself), `blocks` in 512-byte
   * units, `mtime` in whole seconds. `inode` ("dev:ino") is only needed when `nlink` > 1.
   */
  entry(root: number, rel: string, isDir: boolean, blocks: number, size: number, mtime: number, nlink: number, inode: string | null) {
    const bytes = blocks * 512;
    if (!isDir && nlink > 1 && !this.dedupOff) {
      const key = inode!;
      if (this.seen) {
        if (this.seen.has(key)) return;
        if (this.seen.size >= MAX_SEEN_INODES) {
          this.dedupOff = true;
          this.errors.add("", "ETOOMANYLINKS", "too many hard-linked files to de-duplicate; later ones counted at each link");
        } else this.seen.add(key);
      } else {
        this.deferred.push({ root, rel, bytes, size, mtime, key });
        if (this.deferred.length >= MAX_DEFERRED) this.flushDeferred();
        return;
      }
    }
    this.account(root, rel, isDir, bytes, size, mtime);
  }

  /** Hard-linked files: each inode counts once, in the first root (report order), at its first path by name. */
  private flushDeferred() {
    const d = this.deferred;
    this.deferred = [];
    d.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.root - b.root || (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0)));
    this.seen ??= new Set();
    let last: string | null = null;
    for (const x of d) {
      if (x.key === last || this.seen.has(x.key)) continue;
      last = x.key;
      this.seen.add(x.key);
      this.account(x.root, x.rel, false, x.bytes, x.size, x.mtime);
    }
  }

  private account(root: number, rel: string, isDir: boolean, bytes: number, size: number, mtime: number) {
    const r = this.roots[root];
    r.bytes += bytes;
    r.apparent += size;
    const slash = rel.lastIndexOf("/");
    const parent = slash < 0 ? "" : rel.slice(0, slash);
    const name = slash < 0 ? rel : rel.slice(slash + 1);
    const cat = rel === "" ? "other" : r.category.categoryOf(parent, name);
    const c = r.cats[cat];
    c.bytes += bytes;
    const b = this.bounds;
    const age = mtime > b[0] ? r.ages["1d"] : mtime > b[1] ? r.ages["7d"] : mtime > b[2] ? r.ages["30d"] : mtime > b[3] ? r.ages["90d"] : r.ages.older;
    age.bytes += bytes;
    if (isDir) r.dirs++;
    else {
      r.files++;
      c.files++;
      age.files++;
      if (mtime < r.oldest) r.oldest = mtime;
      if (mtime > r.newest) r.newest = mtime;
    }
    if (rel === "") return;

    // folders at depth 1 and 2 (their whole size, like du)
    const i1 = rel.indexOf("/");
    if (i1 < 0) {
      if (isDir) {
        const d = this.dir1(r, rel, rel.length);
        if (d) {
          d.bytes += bytes;
          d.mtime = mtime;
        }
      }
    } else {
      const d = this.dir1(r, rel, i1);
      if (d) d.bytes += bytes;
      const i2 = rel.indexOf("/", i1 + 1);
      if (i2 < 0) {
        if (isDir) {
          const e = this.dir2(r, rel, rel.length);
          if (e) {
            e.bytes += bytes;
            e.mtime = mtime;
          }
        }
      } else {
        const e = this.dir2(r, rel, i2);
        if (e) e.bytes += bytes;
      }
    }

    // sessions
    let sessionFile = false;
    if (!r.sessions.empty) {
      if (!isDir) {
        const kind = r.sessions.fileUnit(parent, name);
        if (kind === "file") {
          sessionFile = true;
          if (r.top.wants(bytes, rel)) r.top.add({ path: rel, bytes, mtime, type: "session" });
        } else if (kind === "file+dir") {
          sessionFile = true;
          const dot = name.lastIndexOf(".");
          const u = r.unit(dot > 0 ? rel.slice(0, rel.length - name.length + dot) : rel);
          if (u) {
            u.filePath = rel;
            u.fileBytes = bytes;
            u.bytes += bytes;
            u.mtime = mtime;
          }
        }
      }
      const units = r.sessions.folderUnits;
      for (let k = 0; k < units.length; k++) {
        const fu = units[k];
        // the first `depth` segments of rel
        let at = -1;
        for (let d = 0; d < fu.depth; d++) {
          at = rel.indexOf("/", at + 1);
          if (at < 0) break;
        }
        let prefix: string;
        if (at < 0) {
          // rel has at most `depth` segments: it is the unit folder only when it has exactly `depth` and is a dir
          if (!isDir || countSegments(rel) !== fu.depth) continue;
          prefix = rel;
        } else if (fu.lastPrefix !== null && fu.lastPrefix.length === at && rel.startsWith(fu.lastPrefix)) {
          if (!fu.lastMatch) continue;
          fu.lastUnit!.bytes += bytes;
          continue;
        } else prefix = rel.slice(0, at);
        const match = fu.re.test(prefix);
        const u = match ? r.unit(fu.kind === "dir" ? "\0" + prefix : prefix) : null;
        fu.lastPrefix = prefix;
        fu.lastMatch = u !== null;
        fu.lastUnit = u;
        if (!u) continue;
        u.bytes += bytes;
        if (at < 0 && fu.kind === "dir") u.mtime = mtime;
      }
    }

    if (!isDir && !sessionFile && r.top.wants(bytes, rel)) r.top.add({ path: rel, bytes, mtime, type: "file" });
  }

  private dir1(r: RootAcc, rel: string, end: number): DirSize | null {
    if (r.k1 !== null && r.k1.length === end && rel.startsWith(r.k1)) return r.d1;
    const k = end === rel.length ? rel : rel.slice(0, end);
    r.k1 = k;
    r.d1 = r.dirSize(k);
    return r.d1;
  }

  private dir2(r: RootAcc, rel: string, end: number): DirSize | null {
    if (r.k2 !== null && r.k2.length === end && rel.startsWith(r.k2)) return r.d2;
    const k = end === rel.length ? rel : rel.slice(0, end);
    r.k2 = k;
    r.d2 = r.dirSize(k);
    return r.d2;
  }

  /** The roots that exist, in the order given, as the report's StorageRoot objects. */
  finish(): StorageRoot[] {
    this.flushDeferred();
    const out: StorageRoot[] = [];
    for (const r of this.roots) {
      if (!r.present) continue;
      const unitFolders = new Set<string>();
      for (const [key, u] of r.units) {
        if (key.startsWith("\0")) {
          const path = key.slice(1);
          unitFolders.add(path);
          r.top.add({ path, bytes: u.bytes, mtime: u.mtime, type: "session" });
        } else if (u.filePath !== null) {
          unitFolders.add(key);
          r.top.add({ path: u.filePath, bytes: u.bytes, mtime: u.mtime, type: "session" });
        }
      }
      for (const [path, d] of r.dirSizes) {
        if (!unitFolders.has(path)) r.top.add({ path, bytes: d.bytes, mtime: d.mtime, type: "dir" });
      }
      const s = r.spec;
      const root: StorageRoot = {
        key: s.key,
        kind: s.kind,
        agent: s.agent,
        path: s.rel,
        bytes: r.bytes,
        apparentBytes: r.apparent,
        files: r.files,
        dirs: r.dirs,
        oldestMtime: r.files > 0 ? iso(r.oldest) : null,
        newestMtime: r.files > 0 ? iso(r.newest) : null,
        categories: pickNonZero(r.cats),
        ages: pickNonZero(r.ages),
        largest: r.top.result().map((c) => ({ path: c.path, bytes: c.bytes, mtime: iso(c.mtime), type: c.type })),
      };
      if (s.kind === "script-data") root.orphaned = !!s.orphaned;
      if (r.unreadable) root.unreadable = r.unreadable;
      out.push(root);
    }
    return out;
  }
}

function countSegments(rel: string): number {
  let n = 1;
  for (let i = rel.indexOf("/"); i >= 0; i = rel.indexOf("/", i + 1)) n++;
  return n;
}

function pickNonZero<K extends string>(rec: Record<K, SizeAndCount>): Partial<Record<K, SizeAndCount>> {
  const out: Partial<Record<K, SizeAndCount>> = {};
  for (const k of Object.keys(rec) as K[]) if (rec[k].bytes > 0 || rec[k].files > 0) out[k] = rec[k];
  return out;
}

export function iso(sec: number): string {
  const ms = Math.min(Math.max(sec * 1000, -8.64e15), 8.64e15);
  return new Date(ms).toISOString();
}
