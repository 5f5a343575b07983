// What keeps a whole recipe from acting, checked once per job before planning: a program that uses the units
// without holding them open (OpenCode commits into its snapshot repositories only while it runs; AgentAPI
// reads its state file at start), and for AgentAPI's leftovers, a module that still starts AgentAPI. Read from
// /proc like the open files (open-files.ts): the workspace user's own processes.

import fs from "node:fs";
import path from "node:path";
import type { Recipe } from "@/lib/catalog/recipes";

/** The names of running programs: each process's comm and the file name of its argv[0]. */
export function runningPrograms(proc = "/proc"): Set<string> {
  const names = new Set<string>();
  let pids: string[] = [];
  try {
    pids = fs.readdirSync(proc).filter((n) => /^\d+$/.test(n));
  } catch {
    return names;
  }
  for (const pid of pids) {
    try {
      names.add(fs.readFileSync(`${proc}/${pid}/comm`, "utf8").trim());
      const argv0 = fs.readFileSync(`${proc}/${pid}/cmdline`, "utf8").split("\0")[0];
      if (argv0) names.add(path.basename(argv0));
    } catch {
      /* gone meanwhile */
    }
  }
  return names;
}

/**
 * When the workspace started, in seconds: the start of process 1 (the container's or the machine's first
 * process), from its start time in clock ticks after boot (/proc/1/stat) and the boot time (/proc/stat).
 */
export function workspaceStartSec(proc = "/proc"): number | null {
  try {
    const btime = /^btime (\d+)$/m.exec(fs.readFileSync(`${proc}/stat`, "utf8"));
    const stat = fs.readFileSync(`${proc}/1/stat`, "utf8");
    // fields after the parenthesised command name; starttime is field 22 (the 20th after it)
    const ticks = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19]);
    return btime && Number.isFinite(ticks) ? Number(btime[1]) + ticks / 100 : null;
  } catch {
    return null;
  }
}

/** The log AgentAPI's start script writes into its module's folder at every start (coder/registry agentapi). */
export const AGENTAPI_START_LOG = "agentapi-start.log";

/** Module folders (current and legacy layout) whose AgentAPI start log was written since `sinceSec`. */
export function agentapiStartedSince(home: string, sinceSec: number): string[] {
  const folders: string[] = [];
  const dirs = (abs: string) => {
    try {
      return fs.readdirSync(abs, { withFileTypes: true }).filter((d) => d.isDirectory());
    } catch {
      return [];
    }
  };
  for (const ns of dirs(path.join(home, ".coder-modules")))
    for (const m of dirs(path.join(home, ".coder-modules", ns.name)))
      folders.push(`.coder-modules/${ns.name}/${m.name}`);
  for (const d of dirs(home)) if (/^\..+-module$/.test(d.name)) folders.push(d.name);
  return folders.filter((f) => {
    try {
      return fs.lstatSync(path.join(home, f, AGENTAPI_START_LOG)).mtimeMs / 1000 >= sinceSec;
    } catch {
      return false;
    }
  });
}

export type GuardFacts = { home: string; running: Set<string>; startSec: number | null };

/** Why the recipe may not act in this workspace now, or null. */
export function recipeBlocked(recipe: Recipe | undefined, facts: GuardFacts): string | null {
  if (!recipe) return null;
  const runs = recipe.notWhileRunning?.find((p) => facts.running.has(p));
  if (runs) return `${runs} is running: ${recipe.title} waits until it has stopped`;
  if (recipe.id === "agentapi-leftovers") {
    if (facts.startSec === null) return "cannot tell when the workspace started: AgentAPI's files are left alone";
    const users = agentapiStartedSince(facts.home, facts.startSec);
    if (users.length)
      return `${users.join(", ")} started AgentAPI since the workspace started: its state file is what a restart resumes from`;
  }
  return null;
}
