// What the run and policy forms edit, and the run request it stands for. The form keeps its numbers as the
// text typed (an empty field means "not given"), so the mapping both ways lives here, apart from the form,
// where it can be tested: a draft from a saved request (a policy), and the request from a draft or what
// keeps it from being one. Its defaults are the protocol's own (./defaults).
import { RECIPES, defaultActionOf, onlyDeleted, type RecipeId } from "@/lib/catalog/recipes";
import { MIN_AGE_HOURS, TRASH_DAYS } from "./defaults";
import type { RunRequest } from "./protocol";
import type { CustomTarget } from "./types";

const MIB = 1024 ** 2;

export type ScopeKind = "workspaceIds" | "owners" | "templates" | "all";

export type RunDraft = {
  /** A built-in recipe, or a custom target (a glob inside one root). */
  target: "recipe" | "custom";
  recipe: RecipeId;
  custom: CustomTarget;
  olderThanDays: string;
  keepNewest: string;
  capMiB: string;
  scopeKind: ScopeKind;
  /** Comma- or space-separated: workspaces (as the resolver reads them), owners or templates. */
  scopeValues: string;
  dryRun: boolean;
  action: "delete" | "trash";
  trashDays: number;
  minAgeHours: number;
  countStatusChanges: boolean;
};

/** A draft's request, or what the admin still has to give (said as the form would say it). */
export type DraftRequest = { ok: true; request: RunRequest } | { ok: false; problem: string };

/** How the form turns a workspace as typed into its id: the id itself unless the form resolves names. */
export type WorkspaceResolution = { ok: true; id: string } | { ok: false; problem: string };
export type ResolveWorkspace = (typed: string) => WorkspaceResolution;
const typedIsId: ResolveWorkspace = (typed) => ({ ok: true, id: typed });

export function recipeOf(id: RecipeId) {
  return RECIPES.find((r) => r.id === id)!;
}

/** A custom target starts on files; trashing (restorable) is the safer action for a glob nobody tried yet. */
const NEW_CUSTOM: CustomTarget = { rootKey: "", glob: "", unit: "file" };

/** A new draft with the recipe's defaults, scoped to one workspace (as typed in the form) or the whole fleet. */
export function defaultDraft(recipe: RecipeId, workspace?: string): RunDraft {
  const r = recipeOf(recipe);
  return {
    target: "recipe",
    recipe,
    custom: NEW_CUSTOM,
    olderThanDays: String(r.defaultOlderThanDays),
    keepNewest: "",
    capMiB: "",
    scopeKind: workspace ? "workspaceIds" : "all",
    scopeValues: workspace ?? "",
    dryRun: false,
    action: r.defaultAction,
    trashDays: TRASH_DAYS.default,
    minAgeHours: MIN_AGE_HOURS.default,
    countStatusChanges: false,
  };
}

/** Whether the draft's target is only ever deleted: a package cache's recipe, or a custom rule inside a cache. */
export const draftOnlyDeleted = (d: RunDraft) =>
  d.target === "recipe" ? onlyDeleted({ recipe: d.recipe }) : onlyDeleted({ custom: d.custom });

/** The draft with another custom target: inside a package cache its action can only be delete. */
export function withCustom(d: RunDraft, custom: CustomTarget): RunDraft {
  const next = { ...d, custom };
  return draftOnlyDeleted(next) ? { ...next, action: "delete" } : next;
}

/** The draft with another target: a recipe brings its own defaults, a custom target keeps the parameters. */
export function withTarget(d: RunDraft, target: { recipe: RecipeId } | "custom"): RunDraft {
  if (target === "custom") return withCustom({ ...d, target: "custom", action: "trash" }, d.custom);
  const fresh = defaultDraft(target.recipe);
  return { ...fresh, scopeKind: d.scopeKind, scopeValues: d.scopeValues, custom: d.custom };
}

/** A draft from a saved request (a policy). */
export function draftFrom(
  req: Pick<
    RunRequest,
    "params" | "scope" | "dryRun" | "action" | "trashDays" | "minAgeHours" | "countStatusChanges"
  > & {
    recipe?: RecipeId | null;
    custom?: CustomTarget | null;
  },
): RunDraft {
  const recipe = req.recipe ?? RECIPES[0].id;
  const [kind, values]: [ScopeKind, string[]] =
    "all" in req.scope ? ["all", []] : (Object.entries(req.scope)[0] as [ScopeKind, string[]]);
  const p = req.params;
  return {
    target: req.custom ? "custom" : "recipe",
    recipe,
    custom: req.custom ?? NEW_CUSTOM,
    olderThanDays: p.olderThanDays?.toString() ?? "",
    keepNewest: p.keepNewest?.toString() ?? "",
    capMiB: p.capBytes !== undefined ? String(Math.round(p.capBytes / MIB)) : "",
    scopeKind: kind,
    scopeValues: values.join(", "),
    dryRun: req.dryRun,
    action: req.action ?? defaultActionOf(req.custom ? { custom: req.custom } : { recipe }),
    trashDays: req.trashDays,
    minAgeHours: req.minAgeHours,
    countStatusChanges: req.countStatusChanges,
  };
}

/** The names in a scope field, in order, each once. */
export function scopeTokens(text: string): string[] {
  return [...new Set(text.split(/[\s,]+/).filter(Boolean))];
}

/** A whole number typed in a field; empty (or anything else) is "not given". */
const wholeNumber = (s: string) => (/^\d+$/.test(s.trim()) ? Number(s.trim()) : undefined);

/** The run request a draft stands for, or what is missing; workspaces typed by name go through `resolve`. */
export function runRequestOf(d: RunDraft, resolve: ResolveWorkspace = typedIsId): DraftRequest {
  const olderThanDays = wholeNumber(d.olderThanDays);
  const keepNewest = wholeNumber(d.keepNewest);
  const capMiB = wholeNumber(d.capMiB);
  if (olderThanDays === undefined && keepNewest === undefined && capMiB === undefined) {
    return { ok: false, problem: "Give at least one of older than, keep newest, cap." };
  }
  if (d.target === "custom" && (!d.custom.rootKey.trim() || !d.custom.glob.trim())) {
    return { ok: false, problem: "Name the custom target's root and the glob of what to remove inside it." };
  }
  const scope = scopeOf(d, resolve);
  if (!scope.ok) return scope;
  return {
    ok: true,
    request: {
      ...(d.target === "custom"
        ? { custom: { rootKey: d.custom.rootKey.trim(), glob: d.custom.glob.trim(), unit: d.custom.unit } }
        : { recipe: d.recipe }),
      params: {
        ...(olderThanDays !== undefined ? { olderThanDays } : {}),
        ...(keepNewest !== undefined ? { keepNewest } : {}),
        ...(capMiB !== undefined ? { capBytes: capMiB * MIB } : {}),
      },
      scope: scope.scope,
      dryRun: d.dryRun,
      action: d.action,
      trashDays: d.trashDays,
      minAgeHours: d.minAgeHours,
      countStatusChanges: d.countStatusChanges,
    },
  };
}

function scopeOf(
  d: RunDraft,
  resolve: ResolveWorkspace,
): { ok: true; scope: RunRequest["scope"] } | { ok: false; problem: string } {
  if (d.scopeKind === "all") return { ok: true, scope: { all: true } };
  const typed = scopeTokens(d.scopeValues);
  if (typed.length === 0)
    return { ok: false, problem: "Name at least one workspace, owner or template, or choose the whole fleet." };
  if (d.scopeKind === "owners") return { ok: true, scope: { owners: typed } };
  if (d.scopeKind === "templates") return { ok: true, scope: { templates: typed } };
  const ids: string[] = [];
  for (const t of typed) {
    const r = resolve(t);
    if (!r.ok) return r;
    if (!ids.includes(r.id)) ids.push(r.id);
  }
  return { ok: true, scope: { workspaceIds: ids } };
}
