import { createHash } from "node:crypto";
import { formatBytes } from "@/lib/format/bytes";
import type { Action, Cause, Notice, NoticeKind } from "./types";

// The rules that decide what a workspace's owner must hear, from facts the database holds (pure: the service
// reads the facts and writes what this returns). A notice is told once per state: the state an owner was last
// told of is kept, and only a new state that is as bad or worse is told again.

export type Thresholds = {
  /** filling: the forecast says the volume is full within this many days. */
  fillingDays: number;
  /** full: at least this share of the volume is used. */
  fullPct: number;
  /** growing file: a file among a root's largest entries grew by more than this since about a day earlier. */
  growingFileBytes: number;
};

export const DEFAULT_THRESHOLDS: Thresholds = { fillingDays: 7, fullPct: 95, growingFileBytes: 1024 ** 3 };

/** A file among a root's largest entries and how much it grew since the report about a day earlier. */
export type GrownFile = Cause & { growth: number };

export type WorkspaceFacts = {
  id: string;
  name: string;
  owner: string;
  /** df's Use%. */
  usedPct: number | null;
  forecastFullAt: Date | null;
  /** The report says the reporter's own writes failed for lack of space (ENOSPC, EDQUOT). */
  writesFailedNoSpace: boolean;
  /** The folders (relative to home) whose data a restart loses. */
  lostAtRestart: string[];
  /** The largest roots, largest first. */
  causes: Cause[];
  /** The files that grew the most since the report about a day earlier, most growth first. */
  grownFiles: GrownFile[];
  /** The recipe that frees the most on this workspace, if any frees anything. */
  bestRecipe: { recipeId: string; title: string; bytes: number } | null;
};

/** What an owner was last told of one kind. */
export type Told = { kind: NoticeKind; stateKey: string; level: number };

const DAY_MS = 86_400_000;
/** Days-to-full steps: "full within 1 day" is worse than within 3, than within 7 (the threshold). */
const FILLING_STEPS = [1, 3];

const freeingAction = (f: WorkspaceFacts): Action =>
  f.bestRecipe && f.bestRecipe.bytes > 0 ? { type: "recipe", ...f.bestRecipe } : { type: "grow-disk" };

function full(f: WorkspaceFacts, t: Thresholds) {
  if (f.writesFailedNoSpace) return { stateKey: "full:no-space", level: 2, figure: "writes fail: no space left" };
  if (f.usedPct !== null && f.usedPct >= t.fullPct)
    return { stateKey: "full", level: 1, figure: `${f.usedPct} % used` };
  return null;
}

function filling(f: WorkspaceFacts, t: Thresholds, now: Date) {
  if (!f.forecastFullAt) return null;
  const days = Math.max(1, Math.ceil((f.forecastFullAt.getTime() - now.getTime()) / DAY_MS));
  if (days > t.fillingDays) return null;
  // Sooner is worse: the first step that holds gives the level (within 1 day: 3, within 3: 2, else 1).
  const i = FILLING_STEPS.findIndex((s) => days <= s);
  const step = i === -1 ? t.fillingDays : FILLING_STEPS[i];
  const level = i === -1 ? 1 : FILLING_STEPS.length + 1 - i;
  return { stateKey: `filling:${step}`, level, figure: `full in ${days} day${days === 1 ? "" : "s"}` };
}

function lostAtRestart(f: WorkspaceFacts) {
  if (f.lostAtRestart.length === 0) return null;
  const paths = [...f.lostAtRestart].sort();
  const digest = createHash("sha256").update(paths.join("\0")).digest("hex").slice(0, 16);
  return {
    stateKey: `lost:${digest}`,
    level: 1,
    figure: `${paths.length} folder${paths.length === 1 ? "" : "s"} lost at restart`,
    paths,
  };
}

/** How many doublings of the threshold a growth is worth: growing twice as fast is worse. */
const GROWTH_LEVELS = 4;

function growingFile(f: WorkspaceFacts, t: Thresholds) {
  const grown = f.grownFiles.filter((g) => g.growth > t.growingFileBytes);
  if (grown.length === 0) return null;
  const [top] = grown;
  const level = Math.min(GROWTH_LEVELS, 1 + Math.floor(Math.log2(top.growth / t.growingFileBytes)));
  const digest = createHash("sha256")
    .update(
      grown
        .map((g) => `${g.agent}\0${g.path}`)
        .sort()
        .join("\0"),
    )
    .digest("hex")
    .slice(0, 16);
  const more = grown.length > 1 ? ` (and ${grown.length - 1} more)` : "";
  return {
    stateKey: `growing:${digest}`,
    level,
    figure: `${top.path} grew by ${formatBytes(top.growth)} in a day${more}`,
    causes: grown.slice(0, 3).map(({ agent, path, bytes }) => ({ agent, path, bytes })),
  };
}

/** The notices that hold for a workspace now (a full volume is not also told as filling). */
export function currentNotices(f: WorkspaceFacts, t: Thresholds, now: Date): Notice[] {
  const base = {
    workspace: { id: f.id, name: f.name, owner: f.owner },
    causes: f.causes,
    decidedAt: now.toISOString(),
  };
  const out: Notice[] = [];
  const isFull = full(f, t);
  if (isFull) out.push({ ...base, kind: "full", ...isFull, action: freeingAction(f) });
  const fill = isFull ? null : filling(f, t, now);
  if (fill) out.push({ ...base, kind: "filling", ...fill, action: freeingAction(f) });
  const growing = growingFile(f, t);
  if (growing) out.push({ ...base, kind: "growing-file", ...growing, action: freeingAction(f) });
  const lost = lostAtRestart(f);
  if (lost) {
    const { paths, ...state } = lost;
    out.push({ ...base, kind: "lost-at-restart", ...state, action: { type: "persist", paths } });
  }
  return out;
}

export type Changes = {
  /** New or worse states: told, and remembered. */
  send: Notice[];
  /** Better states of the same kind: remembered without a word, so a later worsening is told. */
  keep: Notice[];
  /** Kinds that no longer hold: forgotten, so their return is told. */
  clear: NoticeKind[];
};

/** The kinds currentNotices decides, after each report and Coder sync; cleanup ahead is the maintenance's. */
export const WORKSPACE_KINDS: readonly NoticeKind[] = ["full", "filling", "growing-file", "lost-at-restart"];

/**
 * What to tell and remember, given what holds now and what the owner was last told; only of the kinds `decided`
 * (the kinds the caller looked at: another decider's states are left alone).
 */
export function changes(now: Notice[], told: Told[], decided: readonly NoticeKind[] = WORKSPACE_KINDS): Changes {
  told = told.filter((t) => decided.includes(t.kind));
  const last = new Map(told.map((t) => [t.kind, t]));
  const out: Changes = { send: [], keep: [], clear: [] };
  for (const n of now) {
    const t = last.get(n.kind);
    if (!t || n.level > t.level || (n.level === t.level && n.stateKey !== t.stateKey)) out.send.push(n);
    else if (n.stateKey !== t.stateKey || n.level !== t.level) out.keep.push(n);
  }
  const holding = new Set(now.map((n) => n.kind));
  out.clear = told.filter((t) => !holding.has(t.kind)).map((t) => t.kind);
  return out;
}
