// The Node walker: measures entries itself, one readdir per folder and one lstat per entry, like du. It walks
// everything when find cannot -printf (busybox) or is missing, and on the fast path it takes a share of the
// second-level folders while a find process measures the rest (walk-find.ts).
//
// Its cost is the kernel's and little more: it lstats through raw-fs.ts (no Stats object per entry), a folder's
// entries go to the aggregator together (one folder string for all of them), and it lstats by paths relative
// to the root, made the working folder while it walks: the kernel resolves fewer path components per call
// (measured on 200,000 entries: 0.53 s of CPU against 0.80 s with absolute paths and the public API).

import { decodeName } from "@/lib/report-format/path-encoding";
import { inodeKey, listDir, startRoot, type ScanContext } from "./context";
import { errorCode, errorText } from "./errors";
import { relToHome } from "./paths";
import {
  rawFs,
  S_IFDIR,
  S_IFMT,
  ST_BLOCKS,
  ST_DEV,
  ST_INO,
  ST_MODE,
  ST_MTIME_S,
  ST_NLINK,
  ST_SIZE,
  type RawFs,
} from "./raw-fs";

/** The fallback scanner: every root, walked whole. */
export function walkNode(ctx: ScanContext) {
  const walker = new TreeWalker(ctx);
  for (let i = 0; i < ctx.specs.length; i++) {
    const rootSt = startRoot(ctx, i);
    if (!rootSt?.isDirectory()) continue;
    walker.add(i, rootSt.dev, "", "", "all");
  }
  walker.step(Infinity);
}

/**
 * What the walker measures in a folder: "all" its entries and its subfolders' entries; its "files" (entries
 * that are not folders: its subfolders are measured elsewhere); or its "undecodable" entries and everything
 * inside them. A name that is not valid UTF-8 comes out of Node as a string with U+FFFD in it, which names no
 * file (nor can a find start point given as a string): entries so named are measured by the bytes of their
 * folder listed again as buffers. "files" leaves them to "undecodable", so that no entry counts twice.
 */
export type Walk = "all" | "files" | "undecodable";

/** A path the kernel is given: a string, or bytes where a name is not valid UTF-8. */
type FsPath = string | Buffer;

const join = (a: FsPath, b: FsPath): FsPath =>
  typeof a === "string" && typeof b === "string"
    ? a === ""
      ? b
      : a + "/" + b
    : a.length === 0
      ? Buffer.from(b)
      : Buffer.concat([Buffer.from(a), Buffer.from("/"), Buffer.from(b)]);

/** Folders with at least this many entries are made the working folder while they are measured. */
const IN_FOLDER_MIN = 32;

/** Makes `dir` the working folder; false where that cannot be done. */
function enter(dir: string): boolean {
  try {
    process.chdir(dir);
    return true;
  } catch {
    return false;
  }
}

/** Whether a name from Node may stand for bytes that are not UTF-8. */
export const undecodable = (name: string) => name.includes("\uFFFD");

/**
 * Folders to measure, walked a slice at a time. Each folder's entries are measured together, then its subfolders
 * are visited, depth first: memory grows with the folders waiting, never with the tree's size.
 */
export class TreeWalker {
  private raw: RawFs | null = null;
  private readonly todoRoot: number[] = [];
  /** The folder relative to its root, as the report names it ... */
  private readonly todoRel: string[] = [];
  /** ... and as the kernel is given it. */
  private readonly todoPath: FsPath[] = [];
  private readonly todoWalk: Walk[] = [];
  private readonly devs: number[] = [];

  constructor(private readonly ctx: ScanContext) {}

  get done(): boolean {
    return this.todoRel.length === 0;
  }

  /** Adds the folder `rel` (relative to root `root`, "" for the root) whose entries are to be measured. */
  add(root: number, dev: number, rel: string, path: FsPath, walk: Walk) {
    this.devs[root] = dev;
    this.todoRoot.push(root);
    this.todoRel.push(rel);
    this.todoPath.push(path);
    this.todoWalk.push(walk);
  }

  /** Measures entries until about `budget` of them are done or nothing is left. */
  step(budget: number) {
    const ctx = this.ctx;
    let back: string | null = null;
    let cwdRoot = -1;
    try {
      while (budget > 0 && this.todoRel.length > 0) {
        const i = this.todoRoot.pop()!;
        const rel = this.todoRel.pop()!;
        const path = this.todoPath.pop()!;
        const walk = this.todoWalk.pop()!;
        const rootAbs = ctx.specs[i].abs;
        if (cwdRoot !== i) {
          // paths given to the kernel are relative to the root while it is the working folder
          cwdRoot = i;
          try {
            back ??= process.cwd();
            process.chdir(rootAbs);
          } catch {
            cwdRoot = -2; // a worker thread (no chdir there), or no search permission: absolute paths
          }
        }
        this.raw ??= rawFs(rootAbs, ctx.nativeFs);
        budget -= this.folder(this.raw, i, rel, path, walk, cwdRoot === i ? "" : rootAbs);
      }
    } finally {
      if (back !== null) process.chdir(back);
    }
  }

  /**
   * Measures the entries of one folder (`relPath`: relative to the root, as the kernel is given it after `base`,
   * the root's path where it is not the working folder); returns how many it measured.
   */
  private folder(raw: RawFs, i: number, rel: string, relPath: FsPath, walk: Walk, base: string): number {
    const ctx = this.ctx;
    const agg = ctx.agg;
    const nested = ctx.nested;
    const dev = this.devs[i];
    const rootAbs = ctx.specs[i].abs;
    const abs = rel === "" ? rootAbs : rootAbs + "/" + rel;
    const at = (p: FsPath) => (base === "" ? p : join(base, p));
    const folderPath = relPath.length ? at(relPath) : base || ".";
    let names = ctx.customReaddir ? listDir(ctx, i, abs) : this.list(raw, i, folderPath, abs);
    if (names === null) return 1;
    let bytes: Buffer[] | null = null;
    if (typeof relPath !== "string" || names.some(undecodable)) {
      bytes = this.list(raw, i, folderPath, abs, true);
      if (bytes === null) return 1;
      // held as the rest of the reporter holds names: each byte that is not UTF-8 kept (lib/report-format/path-encoding.ts)
      names = bytes.map((b) => decodeName(b));
    } else if (walk === "undecodable") return 1;
    // A large folder becomes the working folder while its entries are measured: then each lstat resolves one
    // component (about 0.1 µs less per component; the two chdir cost about as much as 20 entries save).
    const inside =
      base === "" && relPath !== "" && typeof relPath === "string" && names.length >= IN_FOLDER_MIN && enter(abs);
    try {
      for (let k = 0; k < names.length; k++) {
        const name = names[k];
        // the same test as the find path's hand-over, made on Node's own decoding of the bytes
        const odd = bytes !== null && undecodable(bytes[k].toString());
        if (walk === "undecodable" ? !odd : walk === "files" && odd) continue;
        const asBytes = odd || typeof relPath !== "string";
        const own = asBytes ? bytes![k] : name;
        const path = inside ? own : at(join(relPath, own));
        if (nested.size > 0 && nested.has(abs + "/" + name)) continue; // measured as its own root
        let s: Float64Array | undefined;
        try {
          s = raw.lstat(path);
        } catch (err) {
          agg.unreadable(i, relToHome(ctx.home, abs + "/" + name), errorCode(err), errorText(err));
          continue;
        }
        if (s === undefined) continue; // vanished since it was listed
        if (s[ST_DEV] !== dev) continue; // a mount point: du -x leaves it out entirely
        const isDir = (s[ST_MODE] & S_IFMT) === S_IFDIR;
        if (isDir && walk === "files") continue;
        const nlink = s[ST_NLINK];
        const blocks = s[ST_BLOCKS];
        const size = s[ST_SIZE];
        const mtime = s[ST_MTIME_S];
        const inode = nlink > 1 && !isDir ? inodeKey(path, s[ST_DEV], s[ST_INO]) : null;
        agg.entryIn(i, rel, name, isDir, blocks, size, mtime, nlink, inode);
        if (isDir) this.add(i, dev, rel === "" ? name : rel + "/" + name, join(relPath, own), "all");
      }
    } finally {
      if (inside) enter(rootAbs); // where the root itself is gone, every later lstat finds nothing, as is true
    }
    return names.length + 1;
  }

  /** A folder's names (as bytes with `asBytes`); null when it vanished or cannot be read (counted unreadable). */
  private list(raw: RawFs, i: number, path: FsPath, abs: string): string[] | null;
  private list(raw: RawFs, i: number, path: FsPath, abs: string, asBytes: true): Buffer[] | null;
  private list(raw: RawFs, i: number, path: FsPath, abs: string, asBytes = false): string[] | Buffer[] | null {
    try {
      return asBytes || typeof path !== "string" ? raw.readdirBytes(path) : raw.readdir(path);
    } catch (err) {
      const code = errorCode(err);
      if (code !== "ENOENT") this.ctx.agg.unreadable(i, relToHome(this.ctx.home, abs), code, errorText(err));
      return null;
    }
  }
}
