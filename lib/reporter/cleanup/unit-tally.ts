// One root's units of one target (recipe or custom rule), counted from the scan's own entry stream: no second
// pass over the tree. The folder part of each test is worked out once per folder (FolderFacts), so an entry
// costs a name test or an addition. From the tallies come the report's per-recipe usage by age step and, for a
// job, the list of units to plan on.

import { mergeNeeds, noNeeds, type FolderSums, type Needs } from "../scan/native-sums";
import { joinRel, within } from "../scan/paths";
import { groupDefault, testName } from "../scan/rule-groups";
import type { PathTest } from "@/lib/catalog/globs";
import { GlobMatcher } from "../scan/rules";
import type { ProtectList } from "./protect";
import type { Target } from "./target";
import { DATABASE_FILE, DATABASE_NAME_NEEDS, companionGlob, stemOf, topFolderTest, unitDepth } from "./targets";
import type { Holder, LinkedFile, TargetFolder } from "./target-folder";
import { addTo, SettledTally } from "./settled-tally";

/**
 * A unit being summed: a folder unit, or a file+dir unit whose file may not have been seen yet. `links`: its
 * files with more than one link, whose bytes count once every link was found inside it (settle).
 */
type Acc = { bytes: number; mtime: number; file: string | null; dir: boolean; links: Map<string, LinkedFile> | null };

const MAX_UNITS = 200_000;
/** Hard-linked files followed per target: past it a linked file counts as freeing nothing (never overstated). */
const MAX_LINKED = 2_000_000;

export class UnitTally extends SettledTally {
  private readonly depth: number;
  private readonly topRe: PathTest | null;
  private readonly fileMatch: GlobMatcher | null;
  private readonly dirMatch: GlobMatcher | null;
  private readonly accs = new Map<string, Acc>();
  /** Units not counted because the map was full (memory stays bounded). */
  dropped = 0;
  private linked = 0;
  /**
   * The last top folder path worked out (`depth` segments) and its unit (undefined: not a unit folder): the
   * folders below it arrive next (depth first) and share it.
   */
  private topPrefix = "\0";
  private topHolder: Acc | null | undefined = undefined;

  constructor(
    readonly target: Target,
    rootRel: string,
    nowSec: number,
    protect: ProtectList | null,
    collect: boolean,
  ) {
    // "file" units are counted as they arrive, the others once the walk is over
    super(rootRel, nowSec, protect, collect);
    this.depth = unitDepth(target);
    this.topRe = topFolderTest(target);
    this.fileMatch = target.unit === "dir" ? null : new GlobMatcher(target.glob);
    this.dirMatch =
      target.glob === "."
        ? null
        : target.unit === "dir"
          ? new GlobMatcher(target.glob)
          : target.unit === "file+dir"
            ? new GlobMatcher(companionGlob(target))
            : null;
  }

  /**
   * Fills `f` for the folder `parent` (relative to the root, `depth` segments, named `name`); `up`: what its own
   * parent's entries need, where known (the name tests it cannot tell apart are taken from there).
   */
  fillFolder(f: TargetFolder, parent: string, depth: number, up: TargetFolder | null = null, name = "") {
    f.holder = null;
    f.files = null;
    f.dirs = null;
    f.parts = null;
    if (this.target.glob === ".") {
      f.holder = this.acc("");
      return;
    }
    if (this.topRe !== null && depth >= this.depth) {
      if (!within(parent, this.topPrefix)) {
        let at = -1;
        for (let d = 0; d < this.depth; d++) at = parent.indexOf("/", at + 1);
        const prefix = at < 0 ? parent : parent.slice(0, at);
        this.topPrefix = prefix;
        this.topHolder = this.topRe.test(prefix) ? this.acc(prefix) : undefined;
      }
      if (this.topHolder !== undefined) {
        f.holder = this.topHolder;
        return; // nothing nests inside a unit folder
      }
    }
    const from = up !== null && up.holder === null ? up : null;
    const files = this.fileMatch;
    const dirs = this.dirMatch;
    f.files =
      files === null
        ? null
        : from !== null && files.inherits(depth, name)
          ? from.files
          : files.groupsFor(parent, depth);
    f.dirs =
      dirs === null ? null : from !== null && dirs.inherits(depth, name) ? from.dirs : dirs.groupsFor(parent, depth);
  }

  /**
   * What the units need of the native scanner's sums: a unit folder's entries are summed into it; a file unit
   * needs its name only when its path is kept (a job's list, the protect list), a file+dir or folder unit always.
   */
  needs(): Needs {
    const out = noNeeds();
    if (this.target.glob === ".") return out;
    if (this.topRe !== null) out.foldBelow = this.depth;
    const parts = [
      this.fileMatch?.needs(this.target.unit !== "file" || this.counts.named, "f"),
      this.fileMatch && { ...noNeeds(), names: DATABASE_NAME_NEEDS },
      this.dirMatch?.needs(true, "d"),
    ];
    return mergeNeeds([out, ...parts.filter((x) => !!x)]);
  }

  /**
   * A folder's sums (native scanner): what `entry` does for entries no name test tells apart. Its file units
   * (a name-any file test) are counted per time bin, `stepOf` giving each bin's age step.
   */
  sums(f: TargetFolder, bytes: number, latest: number, s: FolderSums, stepOf: readonly number[]) {
    if (f.holder !== null) return addTo(f.holder, bytes, latest);
    if (this.target.unit !== "file" || f.files === null || groupDefault(f.files) === null) return;
    for (let k = 0; k < s.bins; k++)
      if (s.binFiles[k] !== 0) this.counts.addFiles(stepOf[s.bin[k]], s.binFiles[k], s.binFileBlocks[k] * 512);
  }

  /** The root's own folder entry (only "." units hold it). */
  rootEntry(bytes: number, mtime: number) {
    if (this.target.glob === ".") addTo(this.acc(""), bytes, mtime);
  }

  /** One entry `name` of a folder whose facts are `f` (`rel`: its path, where the caller made it already). */
  entry(
    f: TargetFolder,
    parent: string,
    name: string,
    isDir: boolean,
    bytes: number,
    mtime: number,
    rel: string | null = null,
  ) {
    if (f.holder !== null) return addTo(f.holder, bytes, mtime);
    if (isDir) {
      if (f.dirs !== null && testName(f.dirs, name) !== null) {
        const a = this.acc(rel ?? joinRel(parent, name));
        if (a !== null) a.dir = true;
        addTo(a, bytes, mtime);
      }
    } else if (f.files !== null && testName(f.files, name) !== null && !DATABASE_FILE.test(name)) {
      rel ??= joinRel(parent, name);
      if (this.target.unit === "file") this.counts.count({ path: rel, tops: [rel], bytes, mtime });
      else {
        const a = this.acc(stemOf(rel));
        if (a !== null) {
          a.file = rel;
          addTo(a, bytes, mtime);
        }
      }
    }
  }

  /**
   * One link of a file with `nlink` links (`inode` "dev:ino"), in place of `entry` for such files: deleting a
   * unit frees a file only when every link of it is inside the unit (a pnpm store's files are hard-linked into
   * the projects' node_modules: deleting the store frees none of those). A file unit is one link of several,
   * which frees nothing; a folder's file counts when the unit is complete and all its links were found there.
   */
  link(f: TargetFolder, parent: string, name: string, bytes: number, mtime: number, nlink: number, inode: string) {
    if (f.holder !== null) return this.addLink(f.holder, bytes, mtime, nlink, inode);
    if (f.files === null || testName(f.files, name) === null || DATABASE_FILE.test(name)) return;
    const rel = joinRel(parent, name);
    if (this.target.unit === "file") return this.counts.count({ path: rel, tops: [rel], bytes: 0, mtime });
    const a = this.acc(stemOf(rel));
    if (a !== null) {
      a.file = rel;
      this.addLink(a, bytes, mtime, nlink, inode);
    }
  }

  /** Folder units and file+dir units, complete once the walk is over. */
  protected countSummedUnits() {
    for (const [key, a] of this.accs) {
      for (const l of a.links?.values() ?? []) if (l.found >= l.nlink) a.bytes += l.bytes;
      if (this.target.unit === "dir") this.counts.count({ path: key, tops: [key], bytes: a.bytes, mtime: a.mtime });
      else if (a.file !== null)
        this.counts.count({ path: a.file, tops: a.dir ? [a.file, key] : [a.file], bytes: a.bytes, mtime: a.mtime });
    }
    this.accs.clear();
  }

  private acc(key: string): Acc | null {
    let a = this.accs.get(key);
    if (a === undefined) {
      if (this.accs.size >= MAX_UNITS) {
        this.dropped++;
        return null;
      }
      a = { bytes: 0, mtime: -Infinity, file: null, dir: false, links: null };
      this.accs.set(key, a);
    }
    return a;
  }

  private addLink(a: Holder, bytes: number, mtime: number, nlink: number, inode: string) {
    addTo(a, 0, mtime);
    const links = (a.links ??= new Map());
    const l = links.get(inode);
    if (l !== undefined) l.found++;
    else if (this.linked < MAX_LINKED) {
      this.linked++;
      links.set(inode, { bytes, nlink, found: 1 });
    }
  }
}
