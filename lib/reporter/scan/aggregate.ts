// Turns a stream of entries (from `find` or from the Node walker, in any order) into the report's numbers for
// each root. Nothing here depends on the order entries arrive in, so two `find` processes can feed it at once
// and both scanners give identical results.

import type { StorageRoot } from "@/lib/report-format/schema";
import { stemOf } from "../cleanup/targets";
import type { FoundUnit } from "../cleanup/unit-counts";
import type { ErrorLog } from "./errors";
import { emptyFacts, type FolderFacts } from "./folder-facts";
import { HardLinks } from "./hard-links";
import type { DeletedOpen } from "./home-unseen";
import { rootSumsArgs, sumsArgs, TimeBins, type FolderSums, type ScannerSums } from "./native-sums";
import { joinRel } from "./paths";
import { LARGEST_PER_ROOT, RootTally, type UnitOptions } from "./root-tally";
import type { RootSpec } from "./roots";
import { testName } from "./rule-groups";

export class Aggregator {
  private readonly roots: RootTally[];
  /**
   * Each root's arguments to the native scanner, the same for each of its processes; roots whose rules are the
   * same share one array (the scanner is then given them once: find-process.ts).
   */
  private readonly rootArgs: string[][] = [];
  private readonly argsByText = new Map<string, string[]>();
  private readonly links: HardLinks;
  /** Age boundaries, in seconds since the epoch: an mtime after bounds[i] falls in bucket i (TimeBins). */
  private readonly bounds: number[];
  /** The native scanner's time bins. */
  private readonly bins: TimeBins;
  /** The files deleted but held open on the device the scan was told of, where the native scanner read them. */
  deletedOpen: DeletedOpen | null = null;

  constructor(
    specs: readonly RootSpec[],
    /** collectedAt in seconds. */
    readonly nowSec: number,
    readonly errors: ErrorLog,
    units: Omit<UnitOptions, "nowSec"> = { protect: null, collect: false },
  ) {
    this.roots = specs.map((s) => new RootTally(s, { ...units, nowSec }));
    this.links = new HardLinks(errors, (l) => this.account(l.root, l.rel, false, l.bytes, l.size, l.mtime, true));
    this.bins = new TimeBins(nowSec);
    this.bounds = this.bins.ageBounds;
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
  entry(
    root: number,
    rel: string,
    isDir: boolean,
    blocks: number,
    size: number,
    mtime: number,
    nlink: number,
    inode: string | null,
  ) {
    const bytes = blocks * 512;
    const linked = !isDir && nlink > 1;
    // every link counts towards the recipes' units (unit-tally.ts), the first only towards the root's figures
    if (linked) this.roots[root].link(rel, bytes, mtime, nlink, inode!);
    if (linked && !this.links.take(root, rel, bytes, size, mtime, inode!)) return;
    this.account(root, rel, isDir, bytes, size, mtime, linked);
  }

  /**
   * `entry` for an entry given as its folder (relative to the root, "" for the root's children; not the root
   * itself) and its name: the fast path of the find parser, which keeps one string per folder.
   */
  entryIn(
    root: number,
    parent: string,
    name: string,
    isDir: boolean,
    blocks: number,
    size: number,
    mtime: number,
    nlink: number,
    inode: string | null,
  ) {
    this.entryAt(root, this.roots[root].folders.of(parent), name, isDir, blocks, size, mtime, nlink, inode);
  }

  /**
   * The facts of root `root`'s folder `parent` (relative to the root, "" for the root's children), filled into
   * `into` (reused) or a new object: for `entryAt`, when the caller knows which folder its next entries are in.
   * `up`: the facts of the folder's own parent, where the caller has them (FolderFactsCache.fill).
   */
  folderFacts(root: number, parent: string, into: FolderFacts | null, up: FolderFacts | null = null): FolderFacts {
    const f = into ?? emptyFacts();
    this.roots[root].folders.fill(f, parent, up);
    return f;
  }

  /** `entryIn` for an entry of the folder whose facts `folderFacts` gave (with the same root). */
  entryAt(
    root: number,
    facts: FolderFacts,
    name: string,
    isDir: boolean,
    blocks: number,
    size: number,
    mtime: number,
    nlink: number,
    inode: string | null,
  ) {
    if (!isDir && nlink > 1)
      return this.entry(root, joinRel(facts.parent, name), isDir, blocks, size, mtime, nlink, inode);
    this.accountIn(this.roots[root], facts, name, isDir, blocks * 512, size, mtime, false);
  }

  /** What the native scanner is told for its sums (lib/reporter/scan/native-sums.ts), from each root's rules. */
  scannerSums(): ScannerSums {
    return {
      args: sumsArgs(this.bins, LARGEST_PER_ROOT),
      root: (k) => (this.rootArgs[k] ??= this.shared(rootSumsArgs(this.roots[k].needs()))),
    };
  }

  private shared(args: string[]): string[] {
    const text = args.join("\0");
    const known = this.argsByText.get(text);
    if (known) return known;
    this.argsByText.set(text, args);
    return args;
  }

  /**
   * A folder's sums from the native scanner (the folder whose facts `folderFacts` gave): what `entryAt` does for
   * each of its entries, which no name test of the root tells apart and none of which is among the largest.
   */
  sums(root: number, f: FolderFacts, s: FolderSums) {
    this.roots[root].addSums(f, s, this.bins);
  }

  /** The roots that exist, in the order given, as the report's StorageRoot objects (the whole home is not one). */
  finish(): StorageRoot[] {
    this.links.settle();
    return this.roots.filter((r) => r.present && !r.spec.wholeHome).map((r) => r.toStorageRoot());
  }

  /** The whole home's tally (home-usage.ts), where it was measured; after finish(). */
  wholeHome(): RootTally | null {
    return this.roots.find((r) => r.present && r.spec.wholeHome) ?? null;
  }

  /** A job's scan: each root's units of its targets, by root key and target id. Call after finish(). */
  found(): Map<string, Map<string, FoundUnit[]>> {
    return new Map(
      this.roots
        .filter((r) => r.present)
        .map((r) => [r.spec.key, new Map(r.targets.map((t) => [t.target.id, t.units()]))]),
    );
  }

  /** `linked`: a file with more than one link, which the recipes' units counted already (RootTally.link). */
  private account(
    root: number,
    rel: string,
    isDir: boolean,
    bytes: number,
    size: number,
    mtime: number,
    linked: boolean,
  ) {
    const r = this.roots[root];
    if (rel === "") {
      // the root's own folder
      if (!linked) for (let k = 0; k < r.targets.length; k++) r.targets[k].rootEntry(bytes, mtime);
      r.bytes += bytes;
      r.apparent += size;
      r.cats.other.bytes += bytes;
      r.age(mtime, this.bounds).bytes += bytes;
      if (isDir) r.dirs++;
      else {
        r.files++;
        r.cats.other.files++;
        r.age(mtime, this.bounds).files++;
        if (mtime < r.oldest) r.oldest = mtime;
        if (mtime > r.newest) r.newest = mtime;
      }
      return;
    }
    const slash = rel.lastIndexOf("/");
    this.accountIn(
      r,
      r.folders.of(slash < 0 ? "" : rel.slice(0, slash)),
      slash < 0 ? rel : rel.slice(slash + 1),
      isDir,
      bytes,
      size,
      mtime,
      linked,
    );
  }

  /** One entry `name` (not the root itself) of the folder described by `info`. */
  private accountIn(
    r: RootTally,
    info: FolderFacts,
    name: string,
    isDir: boolean,
    bytes: number,
    size: number,
    mtime: number,
    linked: boolean,
  ) {
    r.bytes += bytes;
    r.apparent += size;
    const c = r.cats[testName(info.cat, name) ?? "other"];
    c.bytes += bytes;
    const age = r.age(mtime, this.bounds);
    age.bytes += bytes;
    if (isDir) r.dirs++;
    else {
      r.files++;
      c.files++;
      age.files++;
      if (mtime < r.oldest) r.oldest = mtime;
      if (mtime > r.newest) r.newest = mtime;
    }

    // folders at depth 1 and 2, the whole home's to 3 (their whole size, like du)
    const depth = info.depth;
    if (info.d1 !== null) info.d1.bytes += bytes;
    if (info.d2 !== null) info.d2.bytes += bytes;
    if (info.d3 !== null) info.d3.bytes += bytes;
    if (info.deps !== null) info.deps.bytes += bytes;
    if (info.copy !== null) info.copy.bytes += bytes;
    if (isDir && r.home !== null) r.home.dirEntry(info, info.parent, name, bytes);
    if (isDir && depth < r.sizedDepth) {
      const d = r.dirSize(depth === 0 ? name : info.parent + "/" + name);
      if (d) {
        d.bytes += bytes;
        d.mtime = mtime;
      }
    }

    // sessions
    let sessionFile = false;
    /** The entry's path relative to the root, made once where something needs it (one string to hash). */
    let rel: string | null = null;
    if (info.sess !== null) {
      if (!isDir) {
        const kind = testName(info.sess, name);
        if (kind === "file") {
          sessionFile = true;
          if (r.top.wantsIn(bytes, info, name))
            r.top.add({ path: (rel ??= joinRel(info.parent, name)), bytes, mtime, type: "session" });
        } else if (kind === "file+dir") {
          sessionFile = true;
          rel ??= joinRel(info.parent, name);
          const u = r.unit(stemOf(rel));
          if (u) {
            u.filePath = rel;
            u.bytes += bytes;
            u.mtime = mtime;
          }
        }
      }
      const units = info.units;
      for (let k = 0; k < info.nUnits; k++) units[k].bytes += bytes;
      if (isDir) {
        // the entry may be a unit folder itself
        const fus = r.sessions.folderUnits;
        for (let k = 0; k < fus.length; k++) {
          const fu = fus[k];
          if (fu.depth !== depth + 1) continue;
          rel ??= joinRel(info.parent, name);
          if (!fu.re.test(rel)) continue;
          const u = r.unit(fu.kind === "dir" ? "\0" + rel : rel);
          if (!u) continue;
          u.bytes += bytes;
          if (fu.kind === "dir") u.mtime = mtime;
        }
      }
    }

    // recipe units
    const targets = r.targets;
    if (!linked)
      for (let k = 0; k < targets.length; k++)
        targets[k].entry(info.rec[k], info.parent, name, isDir, bytes, mtime, rel);

    if (depth === 0 && !isDir && r.leftoverNames !== null && r.leftoverNames.has(name)) {
      r.leftovers.push({ path: name, bytes, apparentBytes: size, mtime });
    }

    if (!isDir && !sessionFile && r.top.wantsIn(bytes, info, name))
      r.top.add({ path: rel ?? joinRel(info.parent, name), bytes, mtime, type: "file" });
  }
}
