// The sizes a root's tally keeps per folder and per session unit; a leaf module, so that the tally and the
// per-folder facts that read them import it and not each other.

/** A folder at depth 1 or 2: its whole size, like du, and its own mtime. */
export type DirSize = { bytes: number; mtime: number };
/** A session made of several entries (a file and its folder, or a folder): one largest entry in the end. */
export type Unit = { bytes: number; mtime: number; filePath: string | null };
