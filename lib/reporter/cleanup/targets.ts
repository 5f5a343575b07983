// What a recipe (or an admin's custom rule) looks for in a root; which roots it applies to is the shared rule
// of lib/catalog/recipe-roots.ts. One definition of "a unit" serves both the report's per-recipe usage (counted
// by the scan, unit-tally.ts) and the jobs (the same scan lists the units, execute.ts acts on them), so the
// preview and the run cannot disagree on what a unit is.

import { recipesForRoot } from "@/lib/catalog/recipe-roots";
import { Glob, globProblem, type PathTest } from "@/lib/catalog/globs";
import type { NameNeed } from "../scan/native-sums";
import type { RootSpec } from "../scan/roots";
import type { Target } from "./target";

/** The built-in recipes that apply to a root, by the rule the preview shares (lib/catalog/recipe-roots.ts). */
export function recipesFor(spec: Pick<RootSpec, "key" | "kind" | "orphaned" | "rel">): Target[] {
  return recipesForRoot({ key: spec.key, kind: spec.kind, path: spec.rel, orphaned: spec.orphaned }).map((r) => ({
    id: r.id,
    unit: r.unit,
    glob: r.glob,
    ...(r.parts && { parts: r.parts }),
  }));
}

/**
 * A SQLite database and its companions (-wal, -shm, -journal) are never a unit on their own: deleting one part
 * corrupts the rest. They go only inside a whole folder unit (a Copilot session, a Cursor chat).
 */
const DATABASE_ENDINGS = [".db", ".db3", "-wal", "-shm", "-journal"];
/** ".sqlite" anywhere in the name: state.sqlite, .sqlite3, and their -wal/-shm companions. */
const DATABASE_PART = ".sqlite";
const literal = (s: string) => s.replace(/[.-]/g, "\\$&");
export const DATABASE_FILE = new RegExp(`(?:${DATABASE_ENDINGS.map(literal).join("|")})$|${literal(DATABASE_PART)}`);
/** The same names as the native scanner's name tests (it then prints them on their own). */
export const DATABASE_NAME_NEEDS: NameNeed[] = [
  ...DATABASE_ENDINGS.map((suf) => ({ depth: -1, kind: "f" as const, pre: "", suf, has: "" })),
  { depth: -1, kind: "f", pre: "", suf: "", has: DATABASE_PART },
];

/**
 * Why a target cannot be acted on safely, or null. Folder units sit at a fixed depth (no `**`), so that a
 * folder is never a unit and inside another unit at once; "." (the root itself) is a folder unit only.
 */
export function targetProblem(t: Target): string | null {
  const segs = t.glob.split("/");
  if (t.glob.startsWith("/") || segs.includes("..") || segs.includes(""))
    return `glob ${t.glob} must be relative, without '..' or empty segments`;
  if (t.glob.includes("\0")) return "glob contains NUL";
  const wildcards = globProblem(t.glob);
  if (wildcards) return wildcards;
  if (t.unit !== "file" && t.glob.includes("**")) return `"${t.unit}" units need a fixed depth: ${t.glob} has "**"`;
  if (t.glob === "." && t.unit !== "dir") return `"." is the root itself: only a "dir" unit`;
  if (t.glob !== "." && segs.includes(".")) return `glob ${t.glob} has a "." segment`;
  if ((t.unit === "file+parts") !== (t.parts !== undefined)) return `only a "file+parts" unit has parts`;
  if (t.parts && segs.length !== t.parts.projectDepth + 2)
    return `glob ${t.glob}: the file of a "file+parts" unit sits in a folder of its project folder`;
  return null;
}

/** Segments of a folder unit's path (0 for "." = the root itself). */
export function unitDepth(t: Target): number {
  return t.glob === "." ? 0 : t.glob.split("/").length;
}

/**
 * The test a unit's top folder path passes: a "dir" unit's folder, or the folder beside a "file+dir"
 * unit's file (same parent, any name; it only counts when the file exists).
 */
export function topFolderTest(t: Target): PathTest | null {
  if (t.unit === "file" || t.glob === ".") return null;
  if (t.unit === "dir") return new Glob(t.glob);
  const slash = t.glob.lastIndexOf("/");
  return new Glob(slash < 0 ? "" : t.glob.slice(0, slash), "child");
}

/** The glob of a "file+dir" unit's companion folders (beside the file, any name). */
export function companionGlob(t: Target): string {
  const slash = t.glob.lastIndexOf("/");
  return slash < 0 ? "*" : t.glob.slice(0, slash) + "/*";
}

let lastRel = "\0";
let lastStem = "";
/**
 * A "file+dir" unit's key: the file's path without its extension, which is also its folder's path. The last
 * one is remembered: the session rules and the recipe ask for the same file's in turn, and one string hashed
 * once serves both lookups.
 */
export function stemOf(rel: string): string {
  if (rel === lastRel) return lastStem;
  const slash = rel.lastIndexOf("/");
  const dot = rel.lastIndexOf(".");
  lastRel = rel;
  lastStem = dot > slash + 1 ? rel.slice(0, dot) : rel;
  return lastStem;
}
