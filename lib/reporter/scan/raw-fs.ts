// lstat and readdir for the Node walker's hot loop, without the objects Node's public API builds per call. On
// 200,000 entries `fs.lstatSync` spends about half its time building the Stats object, and
// `readdirSync(withFileTypes)` a Dirent per name. Node's own fs binding (what `lstatSync` calls) fills one shared
// Float64Array instead. It is internal, so it is used only after it answered exactly as the public API on a
// real folder; otherwise (another Node, another shape) the public API is used through the same interface.

import fs from "node:fs";

/** Fields of a stat array, in the order Node's binding fills them. */
export const ST_DEV = 0;
export const ST_MODE = 1;
export const ST_NLINK = 2;
export const ST_INO = 7;
export const ST_SIZE = 8;
export const ST_BLOCKS = 9;
export const ST_MTIME_S = 12;
const FIELDS = 14;
export const S_IFMT = 0o170000;
export const S_IFDIR = 0o040000;

export type RawFs = {
  /** The entry's fields (ST_*) in an array reused by the next call, or undefined when it does not exist. */
  lstat(path: string | Buffer): Float64Array | undefined;
  /** The folder's names (errors thrown as Node's, with `code`). */
  readdir(path: string): string[];
  /** The folder's names as bytes, for names that are not valid UTF-8. */
  readdirBytes(path: string | Buffer): Buffer[];
  /** Whether this is Node's binding (false: the public API). */
  readonly native: boolean;
};

type Binding = {
  lstat(path: string | Buffer, bigint: false, req: undefined, throwIfNoEntry: boolean): Float64Array | undefined;
  readdir(path: string, encoding: "utf8", withFileTypes: false): string[];
};

const publicFs = (): RawFs => {
  const out = new Float64Array(FIELDS);
  return {
    native: false,
    lstat(p) {
      const st = fs.lstatSync(p, { throwIfNoEntry: false });
      if (!st) return undefined;
      out[ST_DEV] = st.dev;
      out[ST_MODE] = st.mode;
      out[ST_NLINK] = st.nlink;
      out[ST_INO] = st.ino;
      out[ST_SIZE] = st.size;
      out[ST_BLOCKS] = st.blocks;
      out[ST_MTIME_S] = Math.floor(st.mtimeMs / 1000);
      return out;
    },
    readdir: (p) => fs.readdirSync(p),
    readdirBytes: (p) => fs.readdirSync(p, { encoding: "buffer" }),
  };
};

/** Node's binding when it gives what the public API gives for `probe` (a folder) and its entries. */
function nativeFs(probe: string): RawFs | null {
  try {
    const binding = (process as unknown as { binding(name: string): Partial<Binding> }).binding("fs");
    if (typeof binding.lstat !== "function" || typeof binding.readdir !== "function") return null;
    const b = binding as Binding;
    const names = b.readdir(probe, "utf8", false);
    const expected = fs.readdirSync(probe);
    if (!Array.isArray(names) || names.join("\0") !== expected.join("\0")) return null;
    const some = names.filter((n) => !n.includes("\uFFFD")).slice(0, 3); // names that are valid UTF-8
    for (const p of [probe, ...some.map((n) => probe + "/" + n)]) {
      const st = fs.lstatSync(p);
      const v = b.lstat(p, false, undefined, true);
      if (
        !(v instanceof Float64Array) ||
        v[ST_DEV] !== st.dev ||
        v[ST_MODE] !== st.mode ||
        v[ST_NLINK] !== st.nlink ||
        v[ST_INO] !== st.ino ||
        v[ST_SIZE] !== st.size ||
        v[ST_BLOCKS] !== st.blocks ||
        v[ST_MTIME_S] !== Math.floor(st.mtimeMs / 1000)
      )
        return null;
    }
    // paths as bytes, for names that are not valid UTF-8
    if (b.lstat(Buffer.from(probe), false, undefined, true)?.[ST_INO] !== fs.lstatSync(probe).ino) return null;
    let missing = ".missing";
    while (names.includes(missing)) missing += "_";
    if (b.lstat(probe + "/" + missing, false, undefined, false) !== undefined) return null;
    return {
      native: true,
      lstat: (p) => b.lstat(p, false, undefined, false),
      readdir: (p) => b.readdir(p, "utf8", false),
      readdirBytes: (p) => fs.readdirSync(p, { encoding: "buffer" }),
    };
  } catch {
    return null;
  }
}

/** The fastest RawFs that answers like the public API on `probe`; `useNative: false` forces the public API. */
export function rawFs(probe: string, useNative = true): RawFs {
  return (useNative && nativeFs(probe)) || publicFs();
}
