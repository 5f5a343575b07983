// The native scanner's output (lib/reporter/native/scan.c), parsed as it streams in: each folder's path once,
// then its entries by name.

import type { Aggregator } from "./aggregate";
import type { FolderFacts } from "./folder-facts";
import type { StartPoint } from "./find-parser";
import { NulRecords, utf8 } from "./nul-records";
import type { RootSpec } from "./roots";

/**
 * A start point as the reader needs it: its root, where the root's path ends in the paths printed (bytes), and
 * its own path relative to the root split into folder and name.
 */
type Point = { root: number; from: number; parent: string; name: string };

/**
 * Parses the scanner's records (S: the next start point; D: the folder the next entries are in; an entry) into
 * the aggregator. `points` are the start points in the order given to the scanner, each with its path as given
 * (`abs`) and how many bytes of it name its root (`rootLen`).
 */
export class NativeParser extends NulRecords {
  private readonly points: Point[];
  private sp = -1;
  /** The facts of the folder of the entries that follow, or null before the start point's first D. */
  private folder: FolderFacts | null = null;
  /** The object those facts are filled into, reused from folder to folder. */
  private facts: FolderFacts | null = null;

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
      return;
    }
    const p = this.points[this.sp];
    if (p === undefined) return; // more start points than given: not this reader's
    if (c === 68) {
      // 'D'
      // the folder's path relative to the root: one string, no concatenation
      const parent = i + 1 + p.from < end ? utf8(buf, i + 1 + p.from, end) : "";
      this.folder = this.facts = this.agg.folderFacts(p.root, parent, this.facts);
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
}
