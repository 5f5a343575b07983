"use client";

import { useId } from "react";
import { RECIPES, type RecipeId } from "@/lib/catalog/recipes";
import { clampTo, MIN_AGE_HOURS, TRASH_DAYS } from "@/lib/cleanup/defaults";
import { recipeOf, withTarget, type RunDraft, type ScopeKind } from "@/lib/cleanup/run-draft";

/** What the form offers as the admin types: workspaces (or owners, templates) for the scope, root keys for a custom target. */
export type RunFieldCompletion = { scope: readonly string[]; roots: readonly string[] };

const CUSTOM = "custom";

/**
 * The recipe (or a custom target), parameters, scope and action of a run or policy. With `workspacesByName`
 * the workspace scope takes names (the caller resolves them); without it, ids.
 */
export function RunFields({
  draft,
  onChange,
  recipes,
  disabled,
  completion,
  workspacesByName,
}: {
  draft: RunDraft;
  onChange: (d: RunDraft) => void;
  recipes?: RecipeId[];
  disabled?: boolean;
  completion?: RunFieldCompletion;
  workspacesByName?: boolean;
}) {
  const set = (patch: Partial<RunDraft>) => onChange({ ...draft, ...patch });
  const lists = useId();
  const choices = RECIPES.filter((r) => !recipes?.length || recipes.includes(r.id) || r.id === draft.recipe);
  const custom = draft.target === "custom";
  return (
    <fieldset className="stack" disabled={disabled} style={{ border: 0, padding: 0, margin: 0, gap: 10 }}>
      <div className="row">
        <label className="field">
          Recipe
          <select
            aria-label="Recipe"
            value={custom ? CUSTOM : draft.recipe}
            onChange={(e) =>
              onChange(withTarget(draft, e.target.value === CUSTOM ? "custom" : { recipe: e.target.value as RecipeId }))
            }
          >
            {choices.map((r) => (
              <option key={r.id} value={r.id}>
                {r.title}
              </option>
            ))}
            <option value={CUSTOM}>Custom target (a glob in one root)</option>
          </select>
        </label>
        <span className="muted small">
          {custom
            ? "Files or folders matching a glob inside one root of the report. The reporter never leaves the root: the glob is relative to it, without '..'."
            : recipeOf(draft.recipe).description}
        </span>
      </div>
      {custom ? (
        <CustomTargetFields draft={draft} set={set} roots={completion?.roots} listId={`${lists}-roots`} />
      ) : null}
      <div className="row">
        <label className="field">
          Older than
          <input
            type="number"
            min={0}
            aria-label="Older than days"
            value={draft.olderThanDays}
            style={{ width: 80 }}
            onChange={(e) => set({ olderThanDays: e.target.value })}
          />
          days
        </label>
        <label className="field">
          Keep newest
          <input
            type="number"
            min={0}
            aria-label="Keep newest"
            value={draft.keepNewest}
            style={{ width: 80 }}
            onChange={(e) => set({ keepNewest: e.target.value })}
          />
          units
        </label>
        <label className="field">
          Cap these units at
          <input
            type="number"
            min={0}
            aria-label="Cap MiB"
            value={draft.capMiB}
            style={{ width: 90 }}
            onChange={(e) => set({ capMiB: e.target.value })}
          />
          MiB
        </label>
        <label className="field">
          Skip units changed within
          <input
            type="number"
            min={MIN_AGE_HOURS.min}
            max={MIN_AGE_HOURS.max}
            aria-label="Minimum age hours"
            value={draft.minAgeHours}
            style={{ width: 70 }}
            onChange={(e) => set({ minAgeHours: clampTo(MIN_AGE_HOURS, Number(e.target.value)) })}
          />
          hours
        </label>
      </div>
      <label className="field small">
        <input
          type="checkbox"
          aria-label="Count status changes"
          checked={draft.countStatusChanges}
          onChange={(e) => set({ countStatusChanges: e.target.checked })}
        />
        <span>
          Count status changes as activity (ctime, not only modification times).{" "}
          <span className="muted">
            Off by default: Kubernetes workspaces (fsGroup) and templates that chown the home at start reset every ctime
            at each start, so nothing would ever look old. Turn it on where files were restored from a backup with their
            old modification times. The preview counts modification times only.
          </span>
        </span>
      </label>
      <div className="row">
        <label className="field">
          Scope
          <select
            aria-label="Scope"
            value={draft.scopeKind}
            onChange={(e) => set({ scopeKind: e.target.value as ScopeKind })}
          >
            <option value="all">Whole fleet</option>
            <option value="workspaceIds">{workspacesByName ? "Workspaces" : "Workspaces (ids)"}</option>
            <option value="owners">Owners</option>
            <option value="templates">Templates</option>
          </select>
        </label>
        {draft.scopeKind !== "all" ? (
          <>
            <input
              type="text"
              aria-label="Scope values"
              placeholder={
                draft.scopeKind === "workspaceIds" && workspacesByName
                  ? "names or owner/name, comma-separated"
                  : "comma-separated"
              }
              value={draft.scopeValues}
              list={completion ? `${lists}-scope` : undefined}
              autoComplete="off"
              style={{ minWidth: 280, flex: "1 1 280px", maxWidth: 520 }}
              onChange={(e) => set({ scopeValues: e.target.value })}
            />
            {completion ? <Options id={`${lists}-scope`} values={completion.scope} /> : null}
          </>
        ) : null}
      </div>
      <div className="row">
        <label className="field">
          Action
          <select
            aria-label="Action"
            value={draft.action}
            onChange={(e) => set({ action: e.target.value as RunDraft["action"] })}
          >
            <option value="trash">Move to trash (restorable)</option>
            <option value="delete">Delete</option>
          </select>
        </label>
        {draft.action === "trash" ? (
          <label className="field">
            Keep in trash
            <input
              type="number"
              min={TRASH_DAYS.min}
              max={TRASH_DAYS.max}
              aria-label="Trash days"
              value={draft.trashDays}
              style={{ width: 60 }}
              onChange={(e) => set({ trashDays: clampTo(TRASH_DAYS, Number(e.target.value)) })}
            />
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

/** A custom target: the root (a report's root key), the glob inside it, and whether a match is a file or a whole folder. */
function CustomTargetFields({
  draft,
  set,
  roots,
  listId,
}: {
  draft: RunDraft;
  set: (patch: Partial<RunDraft>) => void;
  roots?: readonly string[];
  listId: string;
}) {
  const c = draft.custom;
  return (
    <div className="row" data-testid="custom-target">
      <label className="field">
        Root
        <input
          type="text"
          aria-label="Custom root"
          placeholder="root key, e.g. codex:data"
          value={c.rootKey}
          list={roots ? listId : undefined}
          autoComplete="off"
          style={{ width: 220 }}
          onChange={(e) => set({ custom: { ...c, rootKey: e.target.value } })}
        />
      </label>
      {roots ? <Options id={listId} values={roots} /> : null}
      <label className="field">
        Glob
        <input
          type="text"
          aria-label="Custom glob"
          placeholder="e.g. cache/**/*.tmp"
          value={c.glob}
          autoComplete="off"
          style={{ width: 220 }}
          onChange={(e) => set({ custom: { ...c, glob: e.target.value } })}
        />
      </label>
      <label className="field">
        Each match is
        <select
          aria-label="Custom unit"
          value={c.unit}
          onChange={(e) => set({ custom: { ...c, unit: e.target.value as RunDraft["custom"]["unit"] } })}
        >
          <option value="file">a file</option>
          <option value="dir">a folder, with everything in it</option>
        </select>
      </label>
    </div>
  );
}

function Options({ id, values }: { id: string; values: readonly string[] }) {
  return (
    <datalist id={id}>
      {values.map((v) => (
        <option key={v} value={v} />
      ))}
    </datalist>
  );
}
