// The output of the fast path's find processes, parsed as it streams in: the main thread's share of the work.

import { decodeName } from "@/lib/report/path-encoding";
import type { Aggregator } from "./aggregate";
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
 * and optionally how many bytes of `abs` name the root (default: the root's absolute path). With `files` (the
 * native scanner only), just the folder's entries that are not folders.
 */
export type StartPoint = { abs: string; root: number; rootLen?: number; files?: boolean };

type Utf8Slicer = { utf8Slice?: (start: number, end: number) => string };
declare module "node:buffer" {
  interface Buffer {
    latin1Slice(start: number, end: number): string;
  }
}
/** Buffer#utf8Slice skips toString's argument checks (a third of the parse time); toString where absent. */
const utf8Slice = (buf: Buffer, start: number, end: number): string =>
  (buf as unknown as Utf8Slicer).utf8Slice
    ? (buf as unknown as Required<Utf8Slicer>).utf8Slice(start, end)
    : buf.toString("utf8", start, end);

/**
 * A name or folder as the reporter holds it. Bytes that are not UTF-8 decode to U+FFFD, which is then the sign
 * to decode again keeping each stray byte (lib/report/path-encoding.ts); the common case costs one search.
 */
const utf8 = (buf: Buffer, start: number, end: number): string => {
  const s = utf8Slice(buf, start, end);
  return s.includes("\uFFFD") ? decodeName(buf.subarray(start, end)) : s;
};

/**
 * Parses find's output, records of FMT_SHORT or FMT_LONG separated by NUL, chunk by chunk, into the
 * aggregator. `points` are the start points in the order given to find (each entry belongs to the latest
 * start point that is a prefix of its path).
 *
 * The hot loop reads numbers straight from the bytes and makes one string per entry (its path relative to
 * the root); a record cut by a chunk's end is carried over in one reused buffer.
 */
export class FindParser {
  records = 0;
  private carry: Buffer = Buffer.allocUnsafeSlow(4096);
  private carryLen = 0;
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
    this.rootBytes = specs.map((s) => Buffer.byteLength(s.abs));
    this.setPoint(0);
  }

  private setPoint(k: number) {
    this.sp = k;
    const p = this.points[k];
    this.spBytes = p ? Buffer.from(p.abs) : null;
    this.spRootLen = p ? (p.rootLen ?? this.rootBytes[p.root]) : 0;
  }

  push(chunk: Buffer) {
    let pos = 0;
    if (this.carryLen > 0) {
      // complete the record cut at the end of the previous chunk
      const end = chunk.indexOf(0);
      const take = end < 0 ? chunk.length : end + 1;
      if (this.carryLen + take > this.carry.length) {
        const bigger = Buffer.allocUnsafeSlow(Math.max(this.carry.length * 2, this.carryLen + take));
        this.carry.copy(bigger, 0, 0, this.carryLen);
        this.carry = bigger;
      }
      chunk.copy(this.carry, this.carryLen, 0, take);
      this.carryLen += take;
      if (end < 0) return;
      this.record(this.carry, 0, this.carryLen - 1);
      this.carryLen = 0;
      pos = take;
    }
    pos = this.parse(chunk, pos);
    const left = chunk.length - pos;
    if (left > 0) {
      if (left > this.carry.length) this.carry = Buffer.allocUnsafeSlow(left * 2);
      chunk.copy(this.carry, 0, pos);
      this.carryLen = left;
    }
  }

  /** Parses the complete records in buf from pos; returns where the incomplete rest starts. */
  private parse(buf: Buffer, pos: number): number {
    for (;;) {
      const end = buf.indexOf(0, pos);
      if (end < 0) return pos;
      this.record(buf, pos, end);
      pos = end + 1;
    }
  }

  private record(buf: Buffer, i: number, end: number) {
    this.records++;
    const long = buf[i] === 72; // 'H'
    if (long) i++;
    let c = 0;
    let dev = 0;
    while ((c = buf[i++]) !== 32) dev = dev * 10 + c - 48;
    let ino = "";
    let nlink = 1;
    if (long) {
      const s = i;
      while (buf[i] !== 32) i++;
      ino = buf.latin1Slice(s, i);
      i++;
      nlink = 0;
      while ((c = buf[i++]) !== 32) nlink = nlink * 10 + c - 48;
    }
    let blocks = 0;
    while ((c = buf[i++]) !== 32) blocks = blocks * 10 + c - 48;
    let size = 0;
    while ((c = buf[i++]) !== 32) size = size * 10 + c - 48;
    let neg = false;
    if (buf[i] === 45) {
      neg = true;
      i++;
    }
    let sec = 0;
    while ((c = buf[i++]) !== 46 && c !== 32) sec = sec * 10 + c - 48;
    let frac = false;
    if (c === 46) {
      while ((c = buf[i++]) !== 32) if (c !== 48) frac = true;
    }
    if (neg) sec = frac ? -sec - 1 : -sec;
    const isDir = buf[i] === 100; // 'd'
    i += 2;
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
    if (dev !== this.rootDev[r]) return; // a mount point inside the tree: left out, like du -x
    const name = utf8(buf, slash + 1, end);
    this.agg.entryIn(r, parent, name, isDir, blocks, size, sec, nlink, long ? `${dev}:${ino}` : null);
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
