// "Free space here": from a full disk to the runs that relieve it. The findings that say a volume is full
// offer it, and so does the workspace page; it opens the new-run page for that workspace, which previews every
// recipe there twice (with the recipe's defaults, and with everything past the minimum age) for the admin to
// pick from. Plain data and wording, used by components in the browser.
import { RECIPES, type Recipe } from "@/lib/catalog/recipes";
import { formatBytes } from "@/lib/format/bytes";
import { formatCountOf } from "@/lib/format/numbers";
import { MIN_AGE_HOURS } from "./defaults";
import type { RunRequest } from "./protocol";
import { defaultDraft, runRequestOf } from "./run-draft";

/**
 * The findings that offer it: a full volume (no new file fits, whatever the growth), and storage that Coder says
 * nobody uses (a dormant or long unused workspace, one Coder is about to delete).
 */
export const FREE_SPACE_RULES: readonly string[] = [
  "volume-full",
  "inodes-full",
  "dormant-storage",
  "unused-storage",
  "auto-deletion",
];

export const offersFreeSpace = (ruleId: string) => FREE_SPACE_RULES.includes(ruleId);

export function freeSpaceHref(workspaceId: string): string {
  return `/cleanup/new?${new URLSearchParams({ workspace: workspaceId, free: "1" })}`;
}

/** The two runs of a recipe the page offers: its defaults, or every unit past the minimum age. */
export type FreeSpaceChoice = "defaults" | "minimum";
export type FreeSpaceRow = { recipe: Recipe; runs: Record<FreeSpaceChoice, RunRequest> };

/** Every recipe's two runs on one workspace, each built as the run form would build it. */
export function freeSpaceRows(workspaceId: string): FreeSpaceRow[] {
  return RECIPES.map((recipe) => {
    const draft = defaultDraft(recipe.id, workspaceId);
    return {
      recipe,
      runs: { defaults: built(runRequestOf(draft)), minimum: built(runRequestOf({ ...draft, olderThanDays: "0" })) },
    };
  });
}

function built(r: ReturnType<typeof runRequestOf>): RunRequest {
  // A recipe's defaults always make a request; anything else is a broken catalog entry.
  if (!r.ok) throw new Error(r.problem);
  return r.request;
}

/** What a choice means, for its column: "older than 30 days", "older than 24 hours". */
export function choiceText(row: FreeSpaceRow, choice: FreeSpaceChoice): string {
  return choice === "defaults"
    ? `older than ${formatCountOf(row.recipe.defaultOlderThanDays, "day")}`
    : `older than ${formatCountOf(MIN_AGE_HOURS.default, "hour")}`;
}

/**
 * The confirm button of the runs picked, stating the figure as every run's button does: "Trash 1.2 GiB and
 * delete 300 MiB on alice/dev (2 runs)". Figures are each run's preview total, what the server checks.
 */
export function freeSpaceLabel(
  picked: readonly { action: "delete" | "trash"; bytes: number }[],
  workspace: string,
): string {
  if (picked.length === 0) return "Pick what to free";
  const sum = (action: "delete" | "trash") =>
    picked.filter((p) => p.action === action).reduce((s, p) => s + p.bytes, 0);
  const parts = [
    picked.some((p) => p.action === "trash") ? `trash ${formatBytes(sum("trash"))}` : null,
    picked.some((p) => p.action === "delete") ? `delete ${formatBytes(sum("delete"))}` : null,
  ].filter(Boolean);
  const text = parts.join(" and ");
  return `${text[0].toUpperCase()}${text.slice(1)} on ${workspace}${picked.length > 1 ? ` (${picked.length} runs)` : ""}`;
}
