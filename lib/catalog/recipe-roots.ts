// Which roots a cleanup recipe acts on: one rule for the reporter (which finds the units and acts on them), the
// preview (SQL over root_latest, built from the same pattern source) and the pages that offer a root's cleanup.
// With a rule of their own each, the preview counted roots the job then left alone. Plain code, no imports with
// runtime code: the reporter bundles it.

import type { RootKind } from "@/lib/report-format/constants";
import { RECIPES, REPORTER_DIR, type Recipe } from "./recipes";

/**
 * What `*` matches in a recipe's root pattern: one key segment. The reporter makes every key from names with
 * neither "/" nor ":" (`<namespace>/<module>`, `script-data:<uuid>`, `claude-code:data`), so a segment holds
 * neither. Stopping at "/" alone let `*` reach across a ":": the module roots' pattern took a custom root keyed
 * "team:cache/logs" for a module, and `script-data:*` took "script-data:a:b".
 */
const SEGMENT = "[^/:]+";

/** A root as the report describes it (`path` relative to the home folder; `kind` one of ROOT_KINDS, as stored). */
export type RootFacts = { key: string; kind: string; path: string; orphaned?: boolean };

/** A root pattern as an anchored regular expression, in the syntax JavaScript and PostgreSQL (`~`) share. */
export function rootPatternRegex(pattern: string): string {
  const literal = (s: string) => s.replace(/[\\^$.|+()[\]{}?]/g, "\\$&");
  return "^" + pattern.split("*").map(literal).join(SEGMENT) + "$";
}

/** The text every key a pattern matches starts with (what an index on the key can narrow by first). */
export function rootPatternPrefix(pattern: string): string {
  const star = pattern.indexOf("*");
  return star < 0 ? pattern : pattern.slice(0, star);
}

// Compiled once a pattern: a fleet-wide preview tests every root of the fleet against every recipe's patterns.
const compiled = new Map<string, RegExp>();

export function rootPatternMatches(pattern: string, key: string): boolean {
  let re = compiled.get(pattern);
  if (!re) compiled.set(pattern, (re = new RegExp(rootPatternRegex(pattern))));
  return re.test(key);
}

/** Kinds nothing is ever cleaned in: the trash, and AgentAPI leftovers (their recipe acts on module roots). */
export const UNCLEANABLE_KINDS = ["trash", "leftover"] as const satisfies readonly RootKind[];

/** Whether anything in the root may be cleaned at all: never the trash, nor the reporter's own folder (token, log). */
export function cleanable(root: Pick<RootFacts, "kind" | "path">): boolean {
  return !(UNCLEANABLE_KINDS as readonly string[]).includes(root.kind) && root.path !== REPORTER_DIR;
}

/**
 * The built-in recipes (or those of `among`) that act on a root. A custom root gets none (its key could look like a module's: an
 * admin's custom rule names it instead), and orphaned-only recipes need a root flagged orphaned.
 */
export function recipesForRoot(root: RootFacts, among: readonly Recipe[] = RECIPES): Recipe[] {
  if (!cleanable(root) || root.kind === "custom") return [];
  return among.filter(
    (r) => r.roots.some((p) => rootPatternMatches(p, root.key)) && (!r.orphanedOnly || root.orphaned === true),
  );
}
