"use client";

import { RECIPES, type RecipeId } from "@/lib/catalog/recipes";
import type { RunRequest } from "@/lib/cleanup/protocol";

const MIB = 1024 ** 2;

/** What the run and policy forms edit: text fields stay text until the request is built. */
export type RunDraft = {
  recipe: RecipeId;
  olderThanDays: string;
  keepNewest: string;
  capMiB: string;
  scopeKind: "workspaceIds" | "owners" | "templates" | "all";
  scopeValues: string;
  dryRun: boolean;
  action: "delete" | "trash";
  trashDays: number;
  minAgeHours: number;
  countStatusChanges: boolean;
};

export function recipeOf(id: RecipeId) {
  return RECIPES.find((r) => r.id === id)!;
}

/** A new draft with the recipe's defaults. */
export function defaultDraft(recipe: RecipeId, workspace?: string): RunDraft {
  const r = recipeOf(recipe);
  return {
    recipe, olderThanDays: String(r.defaultOlderThanDays), keepNewest: "", capMiB: "",
    scopeKind: workspace ? "workspaceIds" : "all", scopeValues: workspace ?? "", dryRun: false, action: r.defaultAction, trashDays: 7, minAgeHours: 24,
    countStatusChanges: false,
  };
}

/** A draft from a saved request (a policy). */
export function draftFrom(
  req: Pick<RunRequest, "params" | "scope" | "dryRun" | "action" | "trashDays" | "minAgeHours" | "countStatusChanges"> & { recipe?: RecipeId | null },
): RunDraft {
  const recipe = req.recipe ?? RECIPES[0].id;
  const [kind, values] = "all" in req.scope ? (["all", []] as const) : (Object.entries(req.scope)[0] as [RunDraft["scopeKind"], string[]]);
  return {
    recipe, olderThanDays: req.params.olderThanDays?.toString() ?? "", keepNewest: req.params.keepNewest?.toString() ?? "",
    capMiB: req.params.capBytes !== undefined ? String(Math.round(req.params.capBytes / MIB)) : "", scopeKind: kind,
    scopeValues: values.join(", "), dryRun: req.dryRun, action: req.action ?? recipeOf(recipe).defaultAction, trashDays: req.trashDays,
    minAgeHours: req.minAgeHours, countStatusChanges: req.countStatusChanges,
  };
}

const int = (s: string) => (s.trim() === "" || !/^\d+$/.test(s.trim()) ? undefined : Number(s.trim()));

/** The run request a draft stands for, or an explanation of what is missing. */
export function requestOf(d: RunDraft): RunRequest | string {
  const olderThanDays = int(d.olderThanDays);
  const keepNewest = int(d.keepNewest);
  const cap = int(d.capMiB);
  if (olderThanDays === undefined && keepNewest === undefined && cap === undefined) return "Give at least one of older than, keep newest, cap.";
  const values = d.scopeValues.split(/[\s,]+/).filter(Boolean);
  if (d.scopeKind !== "all" && values.length === 0) return "Name at least one workspace, owner or template, or choose the whole fleet.";
  return {
    recipe: d.recipe,
    params: { ...(olderThanDays !== undefined ? { olderThanDays } : {}), ...(keepNewest !== undefined ? { keepNewest } : {}), ...(cap !== undefined ? { capBytes: cap * MIB } : {}) },
    scope: d.scopeKind === "all" ? { all: true } : ({ [d.scopeKind]: values } as RunRequest["scope"]),
    dryRun: d.dryRun, action: d.action, trashDays: d.trashDays, minAgeHours: d.minAgeHours, countStatusChanges: d.countStatusChanges,
  };
}

/** The recipe, parameters, scope and action of a run or policy. */
export function RunFields({ draft, onChange, recipes, disabled }: { draft: RunDraft; onChange: (d: RunDraft) => void; recipes?: RecipeId[]; disabled?: boolean }) {
  const set = (patch: Partial<RunDraft>) => onChange({ ...draft, ...patch });
  const recipe = recipeOf(draft.recipe);
  const choices = RECIPES.filter((r) => !recipes?.length || recipes.includes(r.id) || r.id === draft.recipe);
  return (
    <fieldset className="stack" disabled={disabled} style={{ border: 0, padding: 0, margin: 0, gap: 10 }}>
      <div className="row">
        <label className="field">
          Recipe
          <select aria-label="Recipe" value={draft.recipe} onChange={(e) => onChange(defaultDraft(e.target.value as RecipeId, draft.scopeKind === "workspaceIds" ? draft.scopeValues : undefined))}>
            {choices.map((r) => (
              <option key={r.id} value={r.id}>{r.title}</option>
            ))}
          </select>
        </label>
        <span className="muted small">{recipe.description}</span>
      </div>
      <div className="row">
        <label className="field">
          Older than
          <input type="number" min={0} aria-label="Older than days" value={draft.olderThanDays} style={{ width: 80 }} onChange={(e) => set({ olderThanDays: e.target.value })} />
          days
        </label>
        <label className="field">
          Keep newest
          <input type="number" min={0} aria-label="Keep newest" value={draft.keepNewest} style={{ width: 80 }} onChange={(e) => set({ keepNewest: e.target.value })} />
          units
        </label>
        <label className="field">
          Cap these units at
          <input type="number" min={0} aria-label="Cap MiB" value={draft.capMiB} style={{ width: 90 }} onChange={(e) => set({ capMiB: e.target.value })} />
          MiB
        </label>
        <label className="field">
          Skip units changed within
          <input type="number" min={1} aria-label="Minimum age hours" value={draft.minAgeHours} style={{ width: 70 }} onChange={(e) => set({ minAgeHours: Math.max(1, Number(e.target.value) || 1) })} />
          hours
        </label>
      </div>
      <label className="field small">
        <input type="checkbox" aria-label="Count status changes" checked={draft.countStatusChanges} onChange={(e) => set({ countStatusChanges: e.target.checked })} />
        <span>
          Count status changes as activity (ctime, not only modification times).{" "}
          <span className="muted">
            Off by default: Kubernetes workspaces (fsGroup) and templates that chown the home at start reset every ctime at each
            start, so nothing would ever look old. Turn it on where files were restored from a backup with their old modification
            times. The preview counts modification times only.
          </span>
        </span>
      </label>
      <div className="row">
        <label className="field">
          Scope
          <select aria-label="Scope" value={draft.scopeKind} onChange={(e) => set({ scopeKind: e.target.value as RunDraft["scopeKind"] })}>
            <option value="all">Whole fleet</option>
            <option value="workspaceIds">Workspaces (ids)</option>
            <option value="owners">Owners</option>
            <option value="templates">Templates</option>
          </select>
        </label>
        {draft.scopeKind !== "all" ? (
          <input type="text" aria-label="Scope values" placeholder="comma-separated" value={draft.scopeValues} style={{ minWidth: 280 }} onChange={(e) => set({ scopeValues: e.target.value })} />
        ) : null}
      </div>
      <div className="row">
        <label className="field">
          Action
          <select aria-label="Action" value={draft.action} onChange={(e) => set({ action: e.target.value as RunDraft["action"] })}>
            <option value="trash">Move to trash (restorable)</option>
            <option value="delete">Delete</option>
          </select>
        </label>
        {draft.action === "trash" ? (
          <label className="field">
            Keep in trash
            <input type="number" min={1} max={90} aria-label="Trash days" value={draft.trashDays} style={{ width: 60 }} onChange={(e) => set({ trashDays: Math.min(90, Math.max(1, Number(e.target.value) || 1)) })} />
            days
          </label>
        ) : null}
        <label className="field">
          <input type="checkbox" checked={draft.dryRun} onChange={(e) => set({ dryRun: e.target.checked })} />
          Dry run (report what would go, change nothing)
        </label>
      </div>
    </fieldset>
  );
}
