// The demo's recipe usage: what each cleanup recipe would find in a simulated root, counted from its deposits
// by age step as a reporter 0.3 counts files, so the demo's previews and catalog have figures.
import { millisecondsInDay as DAY } from "date-fns/constants";
import { RECIPE_AGE_STEPS_DAYS, type RecipeId } from "@/lib/catalog/recipes";
import type { Category, RootKind } from "@/lib/report-format/constants";
import type { RecipeUsage } from "@/lib/report-format/schema";

/**
 * Which of a root's contents a recipe counts: deposits of some categories, its leftovers, or the whole folder as
 * one unit; `{of, every}`: every `every`-th deposit of those categories (one recipe's share of a folder another
 * recipe shares, such as Codex's archived rollouts beside its live ones), or with `every` negative the others.
 */
type Source = Category[] | "leftovers" | "whole" | { of: Category[]; every: number };

function sourcesFor(key: string, kind: RootKind): [RecipeId, Source][] {
  switch (key) {
    case "claude-code:data":
      return [
        ["claude-code-sessions", ["sessions"]],
        ["claude-code-debug", ["logs"]],
        ["claude-code-file-history", ["other"]],
      ];
    case "codex:data":
      return [
        ["codex-rollouts", { of: ["sessions"], every: -10 }],
        ["codex-archived-sessions", { of: ["sessions"], every: 10 }],
        ["codex-releases", ["caches"]],
      ];
    case "claude-code:mcp-logs":
      return [["claude-code-mcp-logs", ["logs"]]];
    case "claude-code:versions":
      return [["claude-code-versions", ["caches"]]];
    case "gemini:data":
      return [["gemini-chats", ["sessions"]]];
    case "copilot:data":
      return [
        ["copilot-sessions", ["sessions"]],
        ["copilot-versions", ["caches"]],
      ];
    case "cursor:data":
      return [["cursor-chats", ["sessions"]]];
    case "opencode:data":
      return [
        ["opencode-logs", ["logs"]],
        ["opencode-tool-output", { of: ["caches"], every: -3 }],
        ["opencode-snapshots", { of: ["caches"], every: 3 }],
      ];
  }
  if (kind === "module")
    return [
      ["module-logs", ["logs"]],
      ["agentapi-leftovers", "leftovers"],
    ];
  if (kind === "script-data") return [["orphaned-script-data", "whole"]];
  return [];
}

export type Deposit = { at: number; bytes: number; files: number; category: Category };
type Leftover = { bytes: number; mtime: string };

function step(ageDays: number): number {
  const i = RECIPE_AGE_STEPS_DAYS.findIndex((d) => ageDays <= d);
  return i === -1 ? RECIPE_AGE_STEPS_DAYS.length : i;
}

/** The `recipes` field of a simulated root measured at `now`. */
export function demoRecipeUsage(
  root: { key: string; kind: RootKind; orphaned?: boolean },
  deposits: readonly Deposit[],
  leftovers: readonly Leftover[],
  now: number,
): Partial<Record<RecipeId, RecipeUsage>> | undefined {
  const sources = sourcesFor(root.key, root.kind);
  if (sources.length === 0) return undefined;
  const out: Partial<Record<RecipeId, RecipeUsage>> = {};
  for (const [recipe, source] of sources) {
    const byAge: [number, number][] = Array.from({ length: RECIPE_AGE_STEPS_DAYS.length + 1 }, () => [0, 0]);
    const add = (ageMs: number, units: number, bytes: number) => {
      const b = byAge[step(ageMs / DAY)];
      b[0] += units;
      b[1] += bytes;
    };
    if (source === "leftovers") {
      for (const l of leftovers) add(now - Date.parse(l.mtime), 1, l.bytes);
    } else if (source === "whole") {
      const newest = Math.max(0, ...deposits.map((d) => d.at));
      const bytes = deposits.reduce((s, d) => s + d.bytes, 0);
      // A current script-data folder is never a unit: only orphaned ones are.
      if (root.orphaned && bytes > 0) add(now - newest, 1, bytes);
    } else {
      const { of, every } = Array.isArray(source) ? { of: source, every: 0 } : source;
      let n = 0;
      for (const d of deposits) {
        if (!of.includes(d.category)) continue;
        const mine = every === 0 || (n++ % Math.abs(every) === Math.abs(every) - 1) === every > 0;
        if (mine) add(now - d.at, d.files, d.bytes);
      }
    }
    const units = byAge.reduce((s, [u]) => s + u, 0);
    const bytes = byAge.reduce((s, [, b]) => s + b, 0);
    out[recipe] = { units, bytes, protectedUnits: 0, protectedBytes: 0, byAge };
  }
  return out;
}
