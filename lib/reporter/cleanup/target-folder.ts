// What one folder's entries need for one target, worked out once per folder (kept in FolderFacts) by the
// target's tally: unit-tally.ts, or session-parts-tally.ts for units spread over several folders.

import type { Group } from "../scan/rule-groups";

/** A file with more than one link, by "dev:ino": its bytes, its link count and the links found in one unit. */
export type LinkedFile = { bytes: number; nlink: number; found: number };

/**
 * A folder holding every entry below it in one sum (a unit's folder, or a part of one). `links`: its files with
 * more than one link, whose bytes count once every link was found inside it (unit-tally.ts).
 */
export type Holder = { bytes: number; mtime: number; links?: Map<string, LinkedFile> | null };

/** A folder of a "file+parts" unit's project folder (the project folder itself too). */
export type PartsFolder = {
  /** The project folder (relative to the root). */
  project: string;
  /** The folder relative to the project folder ("" for the project folder itself). */
  folder: string;
  /** The session whose subagents' chats the folder holds (named by the subagents' ids), else null. */
  subagentsOf: string | null;
};

export type TargetFolder = {
  /** The unit that holds every entry of the folder (inside a unit folder), else null. */
  holder: Holder | null;
  /** Name tests for files of the folder that are units (or a unit's file). */
  files: Group<true>[] | null;
  /** Name tests for folders of the folder that are unit folders (or companion folders). */
  dirs: Group<true>[] | null;
  /** Where the folder sits in a project folder of a "file+parts" unit, else null. */
  parts: PartsFolder | null;
};

export const emptyTargetFolder = (): TargetFolder => ({ holder: null, files: null, dirs: null, parts: null });
