import { RECIPES } from "@/lib/catalog/recipes";
import type { RecipeParams, Scope } from "@/lib/cleanup/protocol";
import type { RunSummary } from "@/lib/db/queries/cleanup-views";
import { formatBytes } from "@/lib/format/bytes";

const BADGE: Record<string, string> = { failed: "critical", expired: "warning", interrupted: "warning", cancelled: "warning" };

/** A job's or run's state as a badge: failures stand out, endings without work are warnings. */
export function StateBadge({ state }: { state: string }) {
  return <span className={`badge ${BADGE[state] ?? ""}`} data-state={state}>{state}</span>;
}

export function recipeTitle(id: string | null | undefined): string {
  return RECIPES.find((r) => r.id === id)?.title ?? id ?? "custom target";
}

export function describeRun(run: Pick<RunSummary, "kind" | "recipe" | "custom">): string {
  if (run.kind === "restore") return `Restore: ${recipeTitle(run.recipe)}`;
  if (run.kind === "purge-trash") return "Empty the trash";
  return run.custom ? `Custom: ${run.custom.glob} in ${run.custom.rootKey}` : recipeTitle(run.recipe);
}

export function scopeText(scope: Scope): string {
  if ("all" in scope) return "whole fleet";
  const [kind, values] = Object.entries(scope)[0] as [string, string[]];
  const label = kind === "workspaceIds" ? "workspace" : kind === "owners" ? "owner" : "template";
  return values.length === 1 ? `${label} ${values[0]}` : `${values.length} ${label}s`;
}

export function paramsText(run: { params: RecipeParams | null; scope: Scope; action: string; dryRun: boolean; kind?: string }): string {
  const p = run.params ?? {};
  const parts = [
    p.olderThanDays !== undefined ? `older than ${p.olderThanDays} days` : null,
    p.keepNewest !== undefined ? `keep newest ${p.keepNewest}` : null,
    p.capBytes !== undefined ? `cap ${formatBytes(p.capBytes)}` : null,
  ].filter(Boolean);
  const verb = run.kind && run.kind !== "cleanup" ? "" : run.dryRun ? "dry run" : run.action;
  return [verb, parts.join(", "), scopeText(run.scope)].filter(Boolean).join(" · ");
}
