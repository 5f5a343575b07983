// The output of the fast path's find processes, parsed as it streams in: the main thread's share of the work
// when find measures (the native scanner's output has a reader of its own: native-parser.ts).

import type { Aggregator } from "./aggregate";
import { NulRecords, utf8 } from "./nul-records";
import type { RootSpec } from "./roots";

/**
 * Folders and files with one link: device, 512-byte blocks, size, mtime, type, path. %T@ is the dearest field
 * (the strftime forms such as %Ts cost four times more).
 */
export const FMT_SHORT = "%D %b %s %T@ %y %p\\0";
/** Hard-linked files add inode and link count; the others skip them: formatting numbers costs find dearly. */
export const FMT_LONG = "H%D %i %n %b %s %T@ %y %p\\0";

/**
 * A start point of find: `abs` as given to find (absolute, or relative to the job's working folder), its root,
 * and optionally how many bytes of `abs` name the root (default: the root's absolute path). With `shared` (the
 * native scanner only), the folder's entries and everything below them, shared out between its processes.
 */
export type StartPoint = { abs: string; root: number; rootLen?: number; shared?: boolean };

/**
 * Parses find's output, records of FMT_SHORT or FMT_LONG separated by NUL, chunk by chunk, into the
 * aggregator. `points` are the start points in the order given to find (each entry belongs to the latest
 * start point that is a prefix of its path).
 *
 * Each entry costs one string (its name); its folder's string is made again only when the folder changes.
 */
export class FindParser extends NulRecords {
  private sp = 0;
  /** The current start point's path as bytes, and where its root's path ends in it. */
  private spBytes: Buffer | null = null;
  private spRootLen = 0;
  private readonly rootBytes: number[];
  /** The previous entry's folder: as find printed it (bytes), its root, and the string handed to the aggregator. */
  private parentBytes: Buffer = Buffer.allocUnsafeSlow(1024);
  private parentLen = -1;
  private parentStr = "";
  private parentRoot = -1;
  constructor(
    private readonly agg: Aggregator,
    specs: readonly RootSpec[],
    private readonly points: readonly StartPoint[],
    private readonly rootDev: readonly number[],
  ) {
    super();
    this.rootBytes = specs.map((s) => Buffer.byteLength(s.abs));
    this.setPoint(0);
  }

  private setPoint(k: number) {
    this.sp = k;
    const p = this.points[k];
    this.spBytes = p ? Buffer.from(p.abs) : null;
    this.spRootLen = p ? (p.rootLen ?? this.rootBytes[p.root]) : 0;
  }

  protected record(buf: Buffer, i: number, end: number) {
    i = this.fields(buf, i);
    // The entry's folder is the path up to its last slash. When it is the previous entry's folder (the
    // common case), so are the start point, the root and the folder's string: no other work.
    let slash = end - 1;
    while (slash >= i && buf[slash] !== 47) slash--;
    const flen = slash - i;
    let r = this.parentRoot;
    let parent = this.parentStr;
    if (flen < 0 || flen !== this.parentLen || !this.sameParent(buf, i, flen)) {
      // which start point (and so which root) this entry belongs to: the current one or a later one
      while (!this.startsWithPoint(buf, i, end)) {
        if (this.sp + 1 >= this.points.length) {
          this.setPoint(0);
          return;
        }
        this.setPoint(this.sp + 1);
      }
      r = this.points[this.sp].root;
      const relStart = i + this.spRootLen + 1;
      parent = slash < relStart ? "" : utf8(buf, relStart, slash);
      if (flen >= 0) {
        if (flen > this.parentBytes.length) this.parentBytes = Buffer.allocUnsafeSlow(flen * 2);
        buf.copy(this.parentBytes, 0, i, slash);
      }
      this.parentLen = flen;
      this.parentStr = parent;
      this.parentRoot = r;
    }
    if (this.dev !== this.rootDev[r]) return; // a mount point inside the tree: left out, like du -x
    const name = utf8(buf, slash + 1, end);
    this.agg.entryIn(r, parent, name, this.isDir, this.blocks, this.size, this.sec, this.nlink, this.inode());
  }

  private sameParent(buf: Buffer, start: number, len: number): boolean {
    const pb = this.parentBytes;
    for (let k = len - 1; k >= 0; k--) if (buf[start + k] !== pb[k]) return false;
    return true;
  }

  /** Whether the path at buf[i..end) is the current start point or lies inside it. */
  private startsWithPoint(buf: Buffer, i: number, end: number): boolean {
    const sp = this.spBytes;
    if (sp === null) return false;
    const n = sp.length;
    if (end - i < n || (end - i > n && buf[i + n] !== 47)) return false;
    // from the end: start points differ in their last bytes
    for (let k = n - 1; k >= 0; k--) if (buf[i + k] !== sp[k]) return false;
    return true;
  }
}
