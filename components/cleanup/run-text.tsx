import { RECIPES, deleteOnly, type RecipeId } from "@/lib/catalog/recipes";
import type { RecipeParams, Scope } from "@/lib/cleanup/protocol";
import { SCOPE_NAMED } from "@/lib/cleanup/types";
import type { RunSummary } from "@/lib/db/queries/cleanup-views";
import { formatBytes } from "@/lib/format/bytes";
import { formatCountOf } from "@/lib/format/numbers";

const BADGE: Record<string, string> = {
  failed: "critical",
  expired: "warning",
  interrupted: "warning",
  cancelled: "warning",
  lapsed: "warning",
};
/** States whose name alone would not say what happened. */
const LABEL: Record<string, string> = { lapsed: "lease lapsed" };

/** A job's or run's state as a badge: failures stand out, endings without work are warnings. */
export function StateBadge({ state }: { state: string }) {
  return (
    <span className={`badge ${BADGE[state] ?? ""}`} data-state={state}>
      {stateLabel(state)}
    </span>
  );
}

export const stateLabel = (state: string) => LABEL[state] ?? state;

export function recipeTitle(id: string | null | undefined): string {
  return RECIPES.find((r) => r.id === id)?.title ?? id ?? "custom target";
}

/** Where a truncated file is: its path in its root ("log/codex-tui.log in codex:data"). */
export const truncatedFile = (t: { rootKey: string; path: string }) => `${t.path} in ${t.rootKey}`;

/** Where a truncated file is in the home, from its root's place there ("~/.codex/log/codex-tui.log"). */
export const truncatedFileInHome = (rootPath: string, path: string) => `~/${rootPath}/${path}`;

export function describeRun(run: Pick<RunSummary, "kind" | "recipe" | "custom" | "target">): string {
  if (run.kind === "restore") return `Restore: ${recipeTitle(run.recipe)}`;
  if (run.kind === "purge-trash") return "Empty the trash";
  if (run.kind === "truncate") return `Truncate: ${run.target ? truncatedFile(run.target) : "a log file"}`;
  return run.custom ? `Custom: ${run.custom.glob} in ${run.custom.rootKey}` : recipeTitle(run.recipe);
}

type ScopeNames = RunSummary["scopeWorkspaces"];

/** Workspaces by name and owner, "billing-yara-39 (yara)", the first few of them; an id no longer known stays an id. */
function workspacesText(ids: string[], names: ScopeNames): string {
  const named = ids.slice(0, SCOPE_NAMED).map((id) => (names[id] ? `${names[id].name} (${names[id].owner})` : id));
  const more = ids.length - named.length;
  if (ids.length === 1 && !names[ids[0]]) return `workspace ${ids[0]}`;
  return more > 0
    ? `${named.join(", ")} and ${formatCountOf(more, "more workspace", "more workspaces")}`
    : named.join(", ");
}

export function scopeText(scope: Scope, names: ScopeNames = {}): string {
  if ("all" in scope) return "whole fleet";
  if ("workspaceIds" in scope) return workspacesText(scope.workspaceIds, names);
  const [kind, values] = Object.entries(scope)[0] as [string, string[]];
  const label = kind === "owners" ? "owner" : "template";
  return values.length === 1 ? `${label} ${values[0]}` : formatCountOf(values.length, label);
}

export function paramsText(run: {
  params: RecipeParams | null;
  scope: Scope;
  action: string;
  dryRun: boolean;
  kind?: string;
  scopeWorkspaces?: ScopeNames;
}): string {
  const p = run.params ?? {};
  const parts = [
    p.olderThanDays !== undefined ? `older than ${formatCountOf(p.olderThanDays, "day")}` : null,
    p.keepNewest !== undefined ? `keep newest ${p.keepNewest}` : null,
    p.capBytes !== undefined ? `cap ${formatBytes(p.capBytes)}` : null,
  ].filter(Boolean);
  const verb = run.kind && run.kind !== "cleanup" ? "" : run.dryRun ? "dry run" : run.action;
  return [verb, parts.join(", "), scopeText(run.scope, run.scopeWorkspaces)].filter(Boolean).join(" · ");
}

/** What a recipe that only deletes (package caches) says in its preview and its confirmation. */
export const DELETE_ONLY_TEXT =
  "Deleted for good, never moved to the trash: a cache in the trash would free nothing until the trash expires. The tool downloads or builds what it needs again. The figure counts only files no other folder links (a pnpm store's files linked into node_modules free nothing).";

/** What a custom rule inside a package cache says in its preview. */
export const CUSTOM_IN_CACHE_TEXT =
  "Inside a package cache: deleted for good, never moved to the trash, which would free nothing until it expires while the tool fills the cache again.";

/** What a real run does to what it selects, said before it is confirmed. */
export function runConsequence(action: "delete" | "trash", trashDays: number, recipe?: string | null): string {
  if (action === "delete" && deleteOnly(recipe as RecipeId | null | undefined))
    return `Each workspace's reporter deletes the selected units when it next calls in. ${DELETE_ONLY_TEXT}`;
  return action === "delete"
    ? "Each workspace's reporter deletes the selected units for good when it next calls in: nothing can bring them back."
    : `Each workspace's reporter moves the selected units into the workspace's trash when it next calls in; the run's Restore brings them back for ${formatCountOf(trashDays, "day")}, then they are removed.`;
}

/**
 * The label of the confirm button: the action and the preview's own figures ("Delete 4.2 GiB from 37
 * workspaces"). A custom target has no figure before it runs (reports do not measure its glob): the button
 * says so rather than "0 B".
 */
export function confirmLabel(
  action: "delete" | "trash",
  dryRun: boolean,
  total: { bytes: number; workspaces: number },
  unknown = false,
): string {
  const verb = dryRun ? "Dry run over" : action === "delete" ? "Delete" : "Trash";
  const where = formatCountOf(total.workspaces, "workspace");
  return unknown
    ? `${verb} what matches in ${where} (sizes come with the results)`
    : `${verb} ${formatBytes(total.bytes)} from ${where}`;
}
