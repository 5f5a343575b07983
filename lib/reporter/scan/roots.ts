// Finds the storage roots of a home folder. A root that does not exist is simply absent. Every root lies
// strictly inside the home folder (its real path too); anything else is skipped with a note.

import fs from "node:fs";
import path from "node:path";
import {
  AGENTS,
  OTHER_AGENT,
  agentForLegacyFolder,
  agentForModule,
  categoryRulesFor,
  isAgentSlug,
  sessionRulesFor,
  type AgentDataPath,
  type CategoryRule,
  type SessionRule,
} from "@/lib/catalog/agents";
import {
  NEVER_A_CACHE,
  PACKAGE_CACHES,
  PACKAGE_CACHE_AGENT,
  type PackageCache,
} from "@/lib/catalog/recipe-data/caches";
import { TRASH_DIR } from "@/lib/catalog/recipes";
import type { RootKind } from "@/lib/report-format/constants";
import type { Target } from "../cleanup/target";
import type { Env } from "../env";
import { isInside, within } from "./paths";

export const KEY_RE = /^[A-Za-z0-9][A-Za-z0-9._:/@-]*$/;
/** Files AgentAPI left in module folders (current and legacy layout) after the modules stopped using them. */
export const LEFTOVER_FILES: readonly string[] = ["agentapi-state.json", "agentapi.pid"];

/** A root to measure: the report's identity for it and the rules its entries are sorted by. */
export type RootSpec = {
  key: string;
  kind: RootKind;
  agent: string;
  /** Absolute path. */
  abs: string;
  /** Relative to home. */
  rel: string;
  orphaned?: boolean;
  /** Names of files directly inside the root to list as AgentAPI leftovers (they count like any file). */
  leftoverNames?: readonly string[];
  categoryRules: readonly CategoryRule[];
  sessionRules: readonly SessionRule[];
  /** The whole home (build-report.ts): measured last, with every other root left out of it. */
  wholeHome?: boolean;
  /** The units to count (default: the recipes that apply to the root); a job sets its own target. */
  targets?: Target[];
};

export type DiscoverOptions = {
  /** Real path of the home folder. */
  home: string;
  env: Env;
  /** Parsed configuration file (may be null). */
  config?: ReporterConfig | null;
  /** Notes for the log (skipped roots and why). */
  notes?: string[];
};

export type ReporterConfig = {
  roots?: { key: string; path: string; agent?: string }[];
};

function dirNames(abs: string): string[] {
  try {
    return fs
      .readdirSync(abs, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
      .sort();
  } catch {
    return [];
  }
}

function exists(abs: string): boolean {
  // most candidates are missing: an exception for each (its message and stack built) cost a run milliseconds
  try {
    return fs.lstatSync(abs, { throwIfNoEntry: false }) !== undefined;
  } catch {
    return false;
  }
}

/**
 * Where an agent's folder is: where its variable moves it (relative to home, or absolute; the agent's folder
 * inside it when the variable names a base folder such as XDG_DATA_HOME), else its place in the home folder;
 * null for a folder that exists only where a variable names it and that variable is unset.
 */
export function dataPathAbs(home: string, env: Env, dp: AgentDataPath): string | null {
  const moved = dp.env ? env[dp.env] : undefined;
  if (moved) return path.resolve(home, moved, dp.envSubpath ?? "");
  return dp.path === undefined ? null : path.join(home, dp.path);
}

/**
 * Where a package cache may be, in the tool's own order: each variable of `movedBy` that is set (`env` names it),
 * then its fixed place in the home. The first that exists in the home is the root: a cache moved to another
 * volume is not on the home's, and one left at the old place still fills it.
 */
function cachePlaces(home: string, env: Env, c: PackageCache): { abs: string; env?: string }[] {
  const places: { abs: string; env?: string }[] = [];
  for (const m of c.movedBy ?? []) {
    const value = m.list ? env[m.env]?.split(":")[0] : env[m.env];
    if (value) places.push({ abs: path.resolve(home, value, m.subpath ?? ""), env: m.env });
  }
  places.push({ abs: path.join(home, c.path) });
  return places;
}

/** Makes a name usable inside a root key. */
function keyPart(s: string): string {
  const t = s.replace(/[^A-Za-z0-9._@-]/g, "_");
  return /^[A-Za-z0-9]/.test(t) ? t : "x" + t;
}

/**
 * The roots of `home`, ordered so that a root nested inside another comes before it (with a hard link
 * counted in the first root that holds it, the numbers then equal `du -s -x <roots in this order>`).
 */
export function discoverRoots(opts: DiscoverOptions): RootSpec[] {
  const { home, env } = opts;
  const notes = opts.notes ?? [];
  const list: RootSpec[] = [];
  const keys = new Set<string>();
  const paths = new Set<string>();
  // the real path of each parent folder once (50 modules have 5 parents), by the C library's realpath
  const realParents = new Map<string, string>();
  const realParentOf = (dir: string) => {
    let real = realParents.get(dir);
    if (real === undefined) realParents.set(dir, (real = fs.realpathSync.native(dir)));
    return real;
  };

  const add = (key: string, kind: RootKind, agent: string, abs: string, extra: Partial<RootSpec> = {}) => {
    abs = path.resolve(abs);
    if (!isInside(abs, home)) {
      notes.push(`skipped ${key}: ${abs} is not inside the home folder`);
      return;
    }
    if (!exists(abs)) return;
    // Never reach outside home through a symbolic link in the path leading to the root.
    try {
      const realParent = realParentOf(path.dirname(abs));
      if (realParent !== home && !isInside(realParent, home)) {
        notes.push(`skipped ${key}: ${abs} leads outside the home folder through a symbolic link`);
        return;
      }
      abs = path.join(realParent, path.basename(abs));
    } catch {
      return;
    }
    if (!KEY_RE.test(key) || key.length > 200) {
      notes.push(`skipped root with invalid key ${JSON.stringify(key)}`);
      return;
    }
    if (keys.has(key) || paths.has(abs)) return; // the first definition wins
    keys.add(key);
    paths.add(abs);
    list.push({
      key,
      kind,
      agent,
      abs,
      rel: abs.slice(home.length + 1),
      categoryRules: categoryRulesFor(kind, agent, key),
      sessionRules: sessionRulesFor(kind, agent, key),
      ...extra,
    });
  };

  // the cleanup trash: a root of its own, left out of the reporter's module folder that holds it
  add("trash", "trash", OTHER_AGENT, path.join(home, TRASH_DIR));

  // ~/.coder-modules/<namespace>/<module>/
  const modulesDir = path.join(home, ".coder-modules");
  for (const ns of dirNames(modulesDir)) {
    for (const mod of dirNames(path.join(modulesDir, ns))) {
      add(`${keyPart(ns)}/${keyPart(mod)}`, "module", agentForModule(mod), path.join(modulesDir, ns, mod), {
        leftoverNames: LEFTOVER_FILES,
      });
    }
  }

  // agents' own folders
  for (const a of AGENTS) {
    for (const dp of a.dataPaths) {
      const abs = dataPathAbs(home, env, dp);
      if (abs) add(dp.key, "tool", a.id, abs);
    }
  }

  // package caches where the tools keep them: roots of their own, so that their cleanup acts inside a root
  const movedCaches = new Map<string, string>();
  for (const c of PACKAGE_CACHES) {
    const found = cachePlaces(home, env, c).find((p) => isInside(p.abs, home) && exists(p.abs));
    if (!found) continue;
    add(c.key, "package-cache", PACKAGE_CACHE_AGENT, found.abs);
    if (found.env) movedCaches.set(c.key, found.env);
  }

  // legacy ~/.<name>-module/ folders
  const legacyDirs = dirNames(home).filter((n) => /^\..+-module$/.test(n));
  for (const n of legacyDirs) {
    const name = n.slice(1);
    add(`legacy:${keyPart(name)}`, "legacy", agentForLegacyFolder(name), path.join(home, n), {
      leftoverNames: LEFTOVER_FILES,
    });
  }

  // coder-script-data/<uuid>/: the current one and orphaned ones
  const current = env.CODER_SCRIPT_DATA_DIR ? path.resolve(home, env.CODER_SCRIPT_DATA_DIR) : null;
  let currentReal = current;
  try {
    if (current) currentReal = fs.realpathSync(current);
  } catch {
    /* keep as given */
  }
  const parents = new Set<string>();
  if (current) parents.add(path.dirname(current));
  parents.add(path.join(home, ".coder", "coder-script-data"));
  for (const parent of parents) {
    if (!isInside(parent, home) && parent !== home) {
      notes.push(`script data in ${parent} is outside the home folder: not reported`);
      continue;
    }
    for (const id of dirNames(parent)) {
      const abs = path.join(parent, id);
      const orphaned = !(current && (abs === current || abs === currentReal));
      add(`script-data:${keyPart(id)}`, "script-data", OTHER_AGENT, abs, { orphaned });
    }
  }

  // custom roots from the configuration file
  for (const c of opts.config?.roots ?? []) {
    if (!c || typeof c.key !== "string" || typeof c.path !== "string") {
      notes.push("skipped a custom root without key and path");
      continue;
    }
    const agent = c.agent && isAgentSlug(c.agent) ? c.agent : OTHER_AGENT;
    add(c.key, "custom", agent, path.resolve(home, c.path));
  }

  // A cache is deleted whole: one that a variable moved onto a folder holding other roots (GOMODCACHE=~/work, say)
  // or a folder that is never a cache (~/.config, ~/.local/share, ...) is no cache of its own, and no root.
  for (const [key, name] of movedCaches) {
    const cache = list.find((r) => r.key === key);
    if (!cache) continue;
    const holds =
      list.find((r) => isInside(r.abs, cache.abs))?.key ??
      NEVER_A_CACHE.find((p) => within(path.join(home, p), cache.abs));
    if (holds === undefined) continue;
    notes.push(`skipped ${key}: ${name} names ${cache.abs}, which is or holds ${holds}`);
    list.splice(list.indexOf(cache), 1);
  }

  // nested roots first
  const ordered: RootSpec[] = [];
  for (const r of list) {
    const at = ordered.findIndex((o) => isInside(r.abs, o.abs));
    if (at < 0) ordered.push(r);
    else ordered.splice(at, 0, r);
  }
  return ordered;
}

/** Reads the reporter's configuration file; a missing file is an empty configuration. */
export function readConfig(file: string): ReporterConfig | null {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw new Error(`cannot read ${file}: ${(err as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new Error(`${file} is not valid JSON: ${(err as Error).message}`);
  }
  if (!parsed || typeof parsed !== "object") throw new Error(`${file}: expected an object like {"roots": [...]}`);
  const roots = (parsed as ReporterConfig).roots;
  if (roots !== undefined && !Array.isArray(roots)) throw new Error(`${file}: "roots" must be an array`);
  return parsed as ReporterConfig;
}
