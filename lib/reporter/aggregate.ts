// Turns a stream of entries (from `find` or from the Node walker, in any order) into the report's numbers for
// each root. Nothing here depends on the order entries arrive in, so two `find` processes can feed it at once
// and both scanners give identical results.

import type { CategoryRule, SessionRule } from "@/lib/catalog/agents";
import { AGE_BUCKETS, CATEGORIES, LIMITS, type AgeBucket, type Category, type RootKind } from "@/lib/report/constants";
import type { LargestEntry, LeftoverEntry, StorageRoot } from "@/lib/report/schema";
import { CategoryMatcher, SessionMatcher, testName, type Group, type SessionUnitKind } from "./rules";

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
  /** Names of files directly inside the root to list as AgentAPI leftovers (they count like any file). */
  leftoverNames?: readonly string[];
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
type Leftover = Omit<LeftoverEntry, "mtime"> & { mtime: number };

/** The N largest by bytes; ties broken by path so the result never depends on arrival order. */
class TopN {
  private items: Candidate[] = [];
  private floor = 0;
  private floorPath = "";
  private full = false;
  /** Changes whenever floor or floorPath does (ParentInfo caches comparisons with floorPath). */
  private version = 0;
  constructor(private readonly n: number) {}
  /** `wants` for the entry `name` in the folder of `info`, without building its path. */
  wantsIn(bytes: number, info: ParentInfo, name: string): boolean {
    if (bytes <= 0) return false;
    if (!this.full || bytes > this.floor) return true;
    if (bytes < this.floor) return false;
    // a tie: path < floorPath, where path is parent + "/" + name
    if (info.tieVersion !== this.version) {
      const f = this.floorPath;
      const q = info.parent === "" ? "" : info.parent + "/";
      if (f.startsWith(q)) {
        info.tieCmp = 0;
        info.tieTail = f.slice(q.length);
      } else info.tieCmp = q < f.slice(0, q.length) ? -1 : 1;
      info.tieVersion = this.version;
    }
    return info.tieCmp < 0 || (info.tieCmp === 0 && name < info.tieTail);
  }
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
      this.version++;
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
  readonly leftoverNames: ReadonlySet<string> | null;
  readonly leftovers: Leftover[] = [];
  readonly category: CategoryMatcher;
  readonly sessions: SessionMatcher;
  // what every entry of a folder shares, for the folders on the current path
  lastParent: string | null = null;
  lastInfo: ParentInfo | null = null;
  /** A few folders' facts, least recently used replaced first: objects reused, not garbage per folder. */
  readonly infos: ParentInfo[] = [];
  clock = 0;

  constructor(readonly spec: RootSpec) {
    this.cats = Object.fromEntries(CATEGORIES.map((c) => [c, { bytes: 0, files: 0 }])) as Record<Category, SizeAndCount>;
    this.ages = Object.fromEntries(AGE_BUCKETS.map((a) => [a, { bytes: 0, files: 0 }])) as Record<AgeBucket, SizeAndCount>;
    this.category = new CategoryMatcher(spec.categoryRules);
    this.sessions = new SessionMatcher(spec.sessionRules);
    this.leftoverNames = spec.leftoverNames?.length ? new Set(spec.leftoverNames) : null;
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

/** What the entries of one folder (`parent`, relative to the root) have in common. */
type ParentInfo = {
  parent: string;
  /** Segments in parent (0 for the root itself). */
  depth: number;
  cat: Group<Category>[];
  sess: Group<SessionUnitKind>[] | null;
  /** The folders at depth 1 and 2 that hold the entries (null when parent is not that deep). */
  d1: DirSize | null;
  d2: DirSize | null;
  /** Session folder units that hold the entries. */
  units: Unit[];
  /** TopN tie-break against floorPath, cached per floor version. */
  tieVersion: number;
  tieCmp: number;
  tieTail: string;
  /** For the least-recently-used replacement. */
  used: number;
};

const INFO_SLOTS = 24;
const emptyInfo = (): ParentInfo => ({ parent: "\0", depth: 0, cat: [], sess: null, d1: null, d2: null, units: [], tieVersion: -1, tieCmp: 0, tieTail: "", used: 0 });

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

  /**
   * `entry` for an entry given as its folder (relative to the root, "" for the root's children; not the root
   * itself) and its name: the fast path of the find parser, which keeps one string per folder.
   */
  entryIn(root: number, parent: string, name: string, isDir: boolean, blocks: number, size: number, mtime: number, nlink: number, inode: string | null) {
    if (!isDir && nlink > 1) return this.entry(root, join(parent, name), isDir, blocks, size, mtime, nlink, inode);
    const r = this.roots[root];
    this.accountIn(r, this.infoFor(r, parent), name, isDir, blocks * 512, size, mtime);
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
    if (rel === "") {
      // the root's own folder
      r.bytes += bytes;
      r.apparent += size;
      r.cats.other.bytes += bytes;
      this.age(r, mtime).bytes += bytes;
      if (isDir) r.dirs++;
      else {
        r.files++;
        r.cats.other.files++;
        this.age(r, mtime).files++;
        if (mtime < r.oldest) r.oldest = mtime;
        if (mtime > r.newest) r.newest = mtime;
      }
      return;
    }
    const slash = rel.lastIndexOf("/");
    this.accountIn(r, this.infoFor(r, slash < 0 ? "" : rel.slice(0, slash)), slash < 0 ? rel : rel.slice(slash + 1), isDir, bytes, size, mtime);
  }

  private age(r: RootAcc, mtime: number): SizeAndCount {
    const b = this.bounds;
    return mtime > b[0] ? r.ages["1d"] : mtime > b[1] ? r.ages["7d"] : mtime > b[2] ? r.ages["30d"] : mtime > b[3] ? r.ages["90d"] : r.ages.older;
  }

  /**
   * The shared facts of folder `parent`. Entries arrive folder by folder, depth first, so only the folders on
   * the current path come back: a small set of reused objects is enough. Allocating one per folder made
   * objects that outlive a young-generation collection, and V8 then grows the young generation (the larger
   * part of the process's peak memory).
   */
  private infoFor(r: RootAcc, parent: string): ParentInfo {
    if (parent === r.lastParent) return r.lastInfo!;
    const infos = r.infos;
    let info: ParentInfo | null = null;
    for (let k = 0; k < infos.length; k++) {
      if (infos[k].parent === parent) {
        info = infos[k];
        break;
      }
    }
    if (info === null) {
      if (infos.length < INFO_SLOTS) {
        info = emptyInfo();
        infos.push(info);
      } else {
        info = infos[0];
        for (let k = 1; k < infos.length; k++) if (infos[k].used < info.used) info = infos[k];
      }
      this.fillInfo(r, info, parent);
    }
    info.used = ++r.clock;
    r.lastParent = parent;
    r.lastInfo = info;
    return info;
  }

  private fillInfo(r: RootAcc, info: ParentInfo, parent: string) {
    let depth = 0;
    let i1 = -1;
    let i2 = -1;
    if (parent !== "") {
      depth = 1;
      for (let i = parent.indexOf("/"); i >= 0; i = parent.indexOf("/", i + 1)) {
        if (depth === 1) i1 = i;
        else if (depth === 2) i2 = i;
        depth++;
      }
    }
    const units = info.units;
    units.length = 0;
    if (!r.sessions.empty) {
      for (const fu of r.sessions.folderUnits) {
        if (depth < fu.depth) continue;
        let at = -1;
        for (let d = 0; d < fu.depth; d++) at = parent.indexOf("/", at + 1);
        const prefix = at < 0 ? parent : parent.slice(0, at);
        if (!fu.re.test(prefix)) continue;
        const u = r.unit(fu.kind === "dir" ? "\0" + prefix : prefix);
        if (u) units.push(u);
      }
    }
    info.parent = parent;
    info.depth = depth;
    info.cat = r.category.groupsFor(parent);
    info.sess = r.sessions.empty ? null : r.sessions.groupsFor(parent);
    info.d1 = depth >= 1 ? r.dirSize(i1 < 0 ? parent : parent.slice(0, i1)) : null;
    info.d2 = depth >= 2 ? r.dirSize(i2 < 0 ? parent : parent.slice(0, i2)) : null;
    info.tieVersion = -1;
    info.tieCmp = 0;
    info.tieTail = "";
  }

  /** One entry `name` (not the root itself) of the folder described by `info`. */
  private accountIn(r: RootAcc, info: ParentInfo, name: string, isDir: boolean, bytes: number, size: number, mtime: number) {
    r.bytes += bytes;
    r.apparent += size;
    const c = r.cats[testName(info.cat, name) ?? "other"];
    c.bytes += bytes;
    const age = this.age(r, mtime);
    age.bytes += bytes;
    if (isDir) r.dirs++;
    else {
      r.files++;
      c.files++;
      age.files++;
      if (mtime < r.oldest) r.oldest = mtime;
      if (mtime > r.newest) r.newest = mtime;
    }

    // folders at depth 1 and 2 (their whole size, like du)
    const depth = info.depth;
    if (info.d1 !== null) info.d1.bytes += bytes;
    if (info.d2 !== null) info.d2.bytes += bytes;
    if (isDir && depth <= 1) {
      const d = r.dirSize(depth === 0 ? name : info.parent + "/" + name);
      if (d) {
        d.bytes += bytes;
        d.mtime = mtime;
      }
    }

    // sessions
    let sessionFile = false;
    if (info.sess !== null) {
      if (!isDir) {
        const kind = testName(info.sess, name);
        if (kind === "file") {
          sessionFile = true;
          if (r.top.wantsIn(bytes, info, name)) r.top.add({ path: join(info.parent, name), bytes, mtime, type: "session" });
        } else if (kind === "file+dir") {
          sessionFile = true;
          const dot = name.lastIndexOf(".");
          const rel = join(info.parent, name);
          const u = r.unit(dot > 0 ? rel.slice(0, rel.length - name.length + dot) : rel);
          if (u) {
            u.filePath = rel;
            u.fileBytes = bytes;
            u.bytes += bytes;
            u.mtime = mtime;
          }
        }
      }
      const units = info.units;
      for (let k = 0; k < units.length; k++) units[k].bytes += bytes;
      if (isDir) {
        // the entry may be a unit folder itself
        const fus = r.sessions.folderUnits;
        for (let k = 0; k < fus.length; k++) {
          const fu = fus[k];
          if (fu.depth !== depth + 1) continue;
          const rel = join(info.parent, name);
          if (!fu.re.test(rel)) continue;
          const u = r.unit(fu.kind === "dir" ? "\0" + rel : rel);
          if (!u) continue;
          u.bytes += bytes;
          if (fu.kind === "dir") u.mtime = mtime;
        }
      }
    }

    if (depth === 0 && !isDir && r.leftoverNames !== null && r.leftoverNames.has(name)) {
      r.leftovers.push({ path: name, bytes, apparentBytes: size, mtime });
    }

    if (!isDir && !sessionFile && r.top.wantsIn(bytes, info, name)) r.top.add({ path: join(info.parent, name), bytes, mtime, type: "file" });
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
      if (r.leftovers.length) {
        root.leftovers = r.leftovers.sort((a, b) => (a.path < b.path ? -1 : 1)).map((l) => ({ ...l, mtime: iso(l.mtime) }));
      }
      if (r.unreadable) root.unreadable = r.unreadable;
      out.push(root);
    }
    return out;
  }
}

const join = (parent: string, name: string) => (parent === "" ? name : parent + "/" + name);

function pickNonZero<K extends string>(rec: Record<K, SizeAndCount>): Partial<Record<K, SizeAndCount>> {
  const out: Partial<Record<K, SizeAndCount>> = {};
  for (const k of Object.keys(rec) as K[]) if (rec[k].bytes > 0 || rec[k].files > 0) out[k] = rec[k];
  return out;
}

export function iso(sec: number): string {
  const ms = Math.min(Math.max(sec * 1000, -8.64e15), 8.64e15);
  return new Date(ms).toISOString();
}
