// Turns a stream of entries (from `find` or from the Node walker, in any order) into the report's numbers for
// each root. Nothing here depends on the order entries arrive in, so two `find` processes can feed it at once
// and both scanners give identical results.

import type { StorageRoot } from "@/lib/report-format/schema";
import type { FoundUnit } from "../cleanup/unit-counts";
import type { ErrorLog } from "./errors";
import { emptyFacts, type FolderFacts } from "./folder-facts";
import { HardLinks } from "./hard-links";
import { rootSumsArgs, sumsArgs, TimeBins, type FolderSums, type ScannerSums } from "./native-sums";
import { joinRel } from "./paths";
import { LARGEST_PER_ROOT, RootTally, type UnitOptions } from "./root-tally";
import type { RootSpec } from "./roots";
import { tallyEntry, tallyFolderSums, tallyRootFolder } from "./tally-entry";

export class Aggregator {
  private readonly roots: RootTally[];
  private readonly links: HardLinks;
  /** Age boundaries, in seconds since the epoch: an mtime after bounds[i] falls in bucket i (TimeBins). */
  private readonly bounds: number[];
  /** The native scanner's time bins. */
  private readonly bins: TimeBins;

  constructor(
    specs: readonly RootSpec[],
    /** collectedAt in seconds. */
    readonly nowSec: number,
    readonly errors: ErrorLog,
    units: Omit<UnitOptions, "nowSec"> = { protect: null, collect: false },
  ) {
    this.roots = specs.map((s) => new RootTally(s, { ...units, nowSec }));
    this.links = new HardLinks(errors, (l) => this.account(l.root, l.rel, false, l.bytes, l.size, l.mtime));
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
    if (!isDir && nlink > 1 && !this.links.take(root, rel, bytes, size, mtime, inode!)) return;
    this.account(root, rel, isDir, bytes, size, mtime);
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
    tallyEntry(this.roots[root], this.bounds, facts, name, isDir, blocks * 512, size, mtime);
  }

  /** What the native scanner is told for its sums (lib/reporter/scan/native-sums.ts), from each root's rules. */
  scannerSums(): ScannerSums {
    return { args: sumsArgs(this.bins, LARGEST_PER_ROOT), root: (k) => rootSumsArgs(this.roots[k].needs()) };
  }

  /**
   * A folder's sums from the native scanner (the folder whose facts `folderFacts` gave): what `entryAt` does for
   * each of its entries, which no name test of the root tells apart and none of which is among the largest.
   */
  sums(root: number, f: FolderFacts, s: FolderSums) {
    tallyFolderSums(this.roots[root], this.bins, f, s);
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

  private account(root: number, rel: string, isDir: boolean, bytes: number, size: number, mtime: number) {
    const r = this.roots[root];
    if (rel === "") return tallyRootFolder(r, this.bounds, isDir, bytes, size, mtime);
    const slash = rel.lastIndexOf("/");
    tallyEntry(
      r,
      this.bounds,
      r.folders.of(slash < 0 ? "" : rel.slice(0, slash)),
      slash < 0 ? rel : rel.slice(slash + 1),
      isDir,
      bytes,
      size,
      mtime,
    );
  }
}
