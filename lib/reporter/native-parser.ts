// The native scanner's output (lib/reporter/native/scan.c), parsed as it streams in: each folder's path once,
// then its entries by name.

import type { Aggregator } from "./aggregate";
import type { StartPoint } from "./find-parser";
import { NulRecords, utf8 } from "./nul-records";
import type { RootSpec } from "./roots";

/** A start point as the reader needs it: its root, and its path relative to the root, whole and split. */
type Point = { root: number; rel: string; parent: string; name: string };

/**
 * Parses the scanner's records (S: the next start point; D: the folder the next entries are in; an entry) into
 * the aggregator. `points` are the start points in the order given to the scanner, each with its path as given
 * (`abs`) and how many bytes of it name its root (`rootLen`).
 */
export class NativeParser extends NulRecords {
  private readonly points: Point[];
  private sp = -1;
  /** The folder of the entries that follow (relative to the root), or null before the start point's first D. */
  private parent: string | null = null;

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
      return { root: p.root, rel, parent: slash < 0 ? "" : rel.slice(0, slash), name: rel.slice(slash + 1) };
    });
  }

  protected record(buf: Buffer, i: number, end: number) {
    const c = buf[i];
    if (c === 83) {
      // 'S'
      this.sp++;
      this.parent = null;
      return;
    }
    const p = this.points[this.sp];
    if (p === undefined) return; // more start points than given: not this reader's
    if (c === 68) {
      // 'D'
      this.parent = i + 1 === end ? p.rel : p.rel + "/" + utf8(buf, i + 1, end);
      return;
    }
    i = this.fields(buf, i);
    if (this.dev !== this.rootDev[p.root]) return; // a mount point inside the tree: left out, like du -x
    const own = this.parent === null; // the start point's own entry
    this.agg.entryIn(
      p.root,
      own ? p.parent : this.parent!,
      own ? p.name : utf8(buf, i, end),
      this.isDir,
      this.blocks,
      this.size,
      this.sec,
      this.nlink,
      this.inode(),
    );
  }
}
