// "Free space here": from a full disk to the runs that relieve it. The findings that say a volume is full
// offer it, and so does the workspace page; it opens the new-run page for that workspace, which previews every
// recipe there twice (with the recipe's defaults, and with everything past the minimum age) for the admin to
// pick from, in one request. On a volume that is full or nearly (EMERGENCY_USE_PERCENT), or when the admin asks,
// it offers what frees space now: deleting without the trash, and emptying the trash. Plain data and wording,
// used by components in the browser and by the free-space preview's service.
import { RECIPES, type Recipe } from "@/lib/catalog/recipes";
import { formatBytes } from "@/lib/format/bytes";
import { formatCountOf } from "@/lib/format/numbers";
import { MIN_AGE_HOURS } from "./defaults";
import { freedOf, sumFreed, type CleanupAction } from "./freed";
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
export const FREE_SPACE_CHOICES = ["defaults", "minimum"] as const;
export type FreeSpaceChoice = (typeof FREE_SPACE_CHOICES)[number];

/**
 * From this share of the volume used, the view offers what frees space now (delete without the trash, empty the
 * trash) without being asked: at 95 % a volume has hours left, not the trash's days.
 */
export const EMERGENCY_USE_PERCENT = 95;

export const isEmergency = (usePercent: number | null | undefined) => (usePercent ?? 0) >= EMERGENCY_USE_PERCENT;

/** The run as confirmed: on the emergency path, a recipe that trashes deletes instead (the space is free now). */
export function runAs(run: RunRequest, withoutTrash: boolean): RunRequest {
  return withoutTrash && run.action === "trash" ? { ...run, action: "delete" } : run;
}
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

export type PickedRun = { title: string; action: CleanupAction; trashDays: number; bytes: number; units: string };

/** When the runs picked free their space: "Frees 1 MiB now and 2 GiB in 7 days, once the trash expires." */
export function pickedFreedText(picked: readonly PickedRun[]): string {
  const f = sumFreed(picked.map((p) => freedOf(p.bytes, p.action, p.trashDays)));
  const parts = [
    f.nowBytes > 0 || f.laterBytes === 0 ? `${formatBytes(f.nowBytes)} now` : null,
    f.laterBytes > 0
      ? `${formatBytes(f.laterBytes)} in ${formatCountOf(f.laterDays, "day")}, once the trash expires`
      : null,
  ].filter(Boolean);
  return `Frees ${parts.join(" and ")}.`;
}

/** What a delete removes for good, named for its confirmation: "Claude Code sessions (2 GiB, 40 units)". */
export function goesForGoodText(picked: readonly PickedRun[]): string | null {
  const deleted = picked.filter((p) => p.action === "delete");
  if (deleted.length === 0) return null;
  return (
    `Deleted for good, without the trash; this cannot be undone: ` +
    deleted.map((p) => `${p.title} (${formatBytes(p.bytes)}, ${p.units})`).join(", ") +
    "."
  );
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
