// The native scanner's output (lib/reporter/scan/native/scan.c, given its sums' arguments), parsed as it streams in:
// each folder's path once, then the entries it prints by name, and after everything below it the folder's sums.

import type { Aggregator } from "./aggregate";
import type { StartPoint } from "./find-parser";
import type { FolderFacts } from "./folder-facts";
import { emptySums, type FolderSums } from "./native-sums";
import { NulRecords, utf8 } from "./nul-records";
import type { RootSpec } from "./roots";

/**
 * A start point as the reader needs it: its root, where the root's path ends in the paths printed (bytes), and
 * its own path relative to the root split into folder and name.
 */
type Point = { root: number; from: number; parent: string; name: string };

/**
 * Parses the scanner's records (S: the next start point; D: the folder the next entries are in; an entry; C:
 * the sums that close the innermost open folder; O: the files deleted but held open) into the aggregator. `points` are the start points in the
 * order given to the scanner, each with its path as given (`abs`) and how many bytes of it name its root
 * (`rootLen`).
 */
export class NativeParser extends NulRecords {
  private readonly points: Point[];
  private sp = -1;
  /** The facts of the folder of the entries that follow, or null before the start point's first D. */
  private folder: FolderFacts | null = null;
  /** The facts of the folders open (D and C records nest: `open` of them), each level's object reused. */
  private readonly stack: FolderFacts[] = [];
  private open = 0;
  /** The last C record's sums, and its numbers as read. */
  private readonly s: FolderSums = emptySums();
  private readonly nums: number[] = [];

  constructor(
    private readonly agg: Aggregator,
    specs: readonly RootSpec[],
    points: readonly StartPoint[],
    private readonly rootDev: readonly number[],
  ) {
    super();
    this.points = points.map((p) => {
      const bytes = Buffer.from(p.abs);
      const from = (p.rootLen ?? Buffer.byteLength(specs[p.root].abs)) + 1;
      const rel = from < bytes.length ? utf8(bytes, from, bytes.length) : "";
      const slash = rel.lastIndexOf("/");
      return { root: p.root, from, parent: slash < 0 ? "" : rel.slice(0, slash), name: rel.slice(slash + 1) };
    });
  }

  protected record(buf: Buffer, i: number, end: number) {
    const c = buf[i];
    if (c === 83) {
      // 'S'
      this.sp++;
      this.folder = null;
      this.open = 0;
      return;
    }
    if (c === 79) {
      // 'O': the files deleted but held open, after the walk (-o)
      this.readNumbers(buf, i + 1, end);
      this.agg.deletedOpen = { files: this.nums[0], bytes: this.nums[1] };
      return;
    }
    const p = this.points[this.sp];
    if (p === undefined) return; // more start points than given: not this reader's
    if (c === 68) {
      // 'D'
      // the folder's path relative to the root: one string, no concatenation
      const parent = i + 1 + p.from < end ? utf8(buf, i + 1 + p.from, end) : "";
      const level = this.open++;
      // the folder open around it, when it is the folder's own parent: its facts are a start
      const around = level > 0 ? this.stack[level - 1] : null;
      const up =
        around !== null &&
        around.parent.length > 0 &&
        parent.lastIndexOf("/") === around.parent.length &&
        parent.startsWith(around.parent)
          ? around
          : null;
      this.folder = this.stack[level] = this.agg.folderFacts(p.root, parent, this.stack[level] ?? null, up);
      return;
    }
    if (c === 67) {
      // 'C': the sums that close the innermost open folder
      if (this.open === 0) return;
      const f = this.stack[--this.open];
      this.folder = this.open > 0 ? this.stack[this.open - 1] : null;
      if (i + 1 === end) return; // nothing summed
      this.readSums(buf, i + 1, end);
      if (this.s.dev === this.rootDev[p.root]) this.agg.sums(p.root, f, this.s);
      return;
    }
    i = this.fields(buf, i);
    if (this.dev !== this.rootDev[p.root]) return; // a mount point inside the tree: left out, like du -x
    const f = this.folder;
    if (f !== null) {
      const name = utf8(buf, i, end);
      this.agg.entryAt(p.root, f, name, this.isDir, this.blocks, this.size, this.sec, this.nlink, this.inode());
    } else {
      // the start point's own entry
      this.agg.entryIn(
        p.root,
        p.parent,
        p.name,
        this.isDir,
        this.blocks,
        this.size,
        this.sec,
        this.nlink,
        this.inode(),
      );
    }
  }

  /** Reads a record's numbers (after its letter, each ended by a space) into `nums`; returns how many. */
  private readNumbers(buf: Buffer, i: number, end: number): number {
    const n = this.nums;
    let count = 0;
    while (i < end) {
      let neg = false;
      if (buf[i] === 45) {
        neg = true;
        i++;
      }
      let v = 0;
      let c = 0;
      while ((c = buf[i++]) !== 32) v = v * 10 + c - 48;
      n[count++] = neg ? -v : v;
    }
    return count;
  }

  /** Reads a C record's numbers (after its letter) into `s`: ten, then four per bin. */
  private readSums(buf: Buffer, i: number, end: number) {
    const s = this.s;
    const n = this.nums;
    const count = this.readNumbers(buf, i, end);
    s.dev = n[0];
    s.files = n[1];
    s.fileBlocks = n[2];
    s.fileSize = n[3];
    s.dirs = n[4];
    s.dirBlocks = n[5];
    s.dirSize = n[6];
    s.oldest = n[7];
    s.newest = n[8];
    s.latest = n[9];
    s.bins = 0;
    for (let k = 10; k + 3 < count; k += 4) {
      s.bin[s.bins] = n[k];
      s.binFiles[s.bins] = n[k + 1];
      s.binFileBlocks[s.bins] = n[k + 2];
      s.binDirBlocks[s.bins] = n[k + 3];
      s.bins++;
    }
  }
}
