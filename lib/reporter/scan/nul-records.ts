// What both readers of a scanner's output share (find's, lib/reporter/scan/find-parser.ts, and the native scanner's,
// lib/reporter/scan/native-parser.ts): records ended by NUL, read chunk by chunk as the stream comes in, numbers read
// straight from the bytes, and names decoded as the reporter holds them.

import { decodeName } from "@/lib/report-format/path-encoding";

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
 * to decode again keeping each stray byte (lib/report-format/path-encoding.ts); the common case costs one search.
 */
export const utf8 = (buf: Buffer, start: number, end: number): string => {
  const s = utf8Slice(buf, start, end);
  return s.includes("\uFFFD") ? decodeName(buf.subarray(start, end)) : s;
};

/**
 * Records separated by NUL, parsed chunk by chunk; a record cut by a chunk's end is carried over in one reused
 * buffer. Subclasses read one record at a time; `fields` reads an entry's numbers into the reader's own fields
 * (no object per entry).
 */
export abstract class NulRecords {
  records = 0;
  private carry: Buffer = Buffer.allocUnsafeSlow(4096);
  private carryLen = 0;

  /** The last entry's fields, as `fields` read them. */
  protected dev = 0;
  protected ino = "";
  protected nlink = 1;
  protected blocks = 0;
  protected size = 0;
  protected sec = 0;
  protected isDir = false;
  /** Whether the last entry is a file with hard links (the H form). */
  protected long = false;

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
      this.records++;
      this.record(this.carry, 0, this.carryLen - 1);
      this.carryLen = 0;
      pos = take;
    }
    for (;;) {
      const end = chunk.indexOf(0, pos);
      if (end < 0) break;
      this.records++;
      this.record(chunk, pos, end);
      pos = end + 1;
    }
    const left = chunk.length - pos;
    if (left > 0) {
      if (left > this.carry.length) this.carry = Buffer.allocUnsafeSlow(left * 2);
      chunk.copy(this.carry, 0, pos);
      this.carryLen = left;
    }
  }

  /** One record, buf[i..end) (its NUL at end). */
  protected abstract record(buf: Buffer, i: number, end: number): void;

  /**
   * Reads an entry's fields, `[H]DEV [INO NLINK] BLOCKS SIZE MTIME TYPE ` (MTIME in seconds, whole or with a
   * fraction, which is dropped towards the past), and returns where its path or name starts.
   */
  protected fields(buf: Buffer, i: number): number {
    const long = buf[i] === 72; // 'H'
    if (long) i++;
    this.long = long;
    let c = 0;
    let dev = 0;
    while ((c = buf[i++]) !== 32) dev = dev * 10 + c - 48;
    this.dev = dev;
    let nlink = 1;
    if (long) {
      const s = i;
      while (buf[i] !== 32) i++;
      this.ino = buf.latin1Slice(s, i);
      i++;
      nlink = 0;
      while ((c = buf[i++]) !== 32) nlink = nlink * 10 + c - 48;
    }
    this.nlink = nlink;
    let blocks = 0;
    while ((c = buf[i++]) !== 32) blocks = blocks * 10 + c - 48;
    this.blocks = blocks;
    let size = 0;
    while ((c = buf[i++]) !== 32) size = size * 10 + c - 48;
    this.size = size;
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
    this.sec = neg ? (frac ? -sec - 1 : -sec) : sec;
    this.isDir = buf[i] === 100; // 'd'
    return i + 2;
  }

  /** "dev:ino" of the last entry when it is a file with hard links, else null. */
  protected inode(): string | null {
    return this.long ? `${this.dev}:${this.ino}` : null;
  }
}
