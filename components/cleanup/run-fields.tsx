"use client";

import { useId } from "react";
import { RECIPES, type RecipeId } from "@/lib/catalog/recipes";
import { MIN_AGE_HOURS } from "@/lib/cleanup/defaults";
import { recipeOf, withTarget, type RunDraft } from "@/lib/cleanup/run-draft";
import { CheckField, NumberField } from "@/components/ui/field";
import { Select } from "@/components/ui/select";
import { CustomTargetFields } from "./custom-target-fields";
import { CUSTOM, CUSTOM_HINT, LIMITS, StatusChangesText } from "./run-field-choices";
import { ActionRow, BoundedField, ScopeRow } from "./run-field-rows";

/** What the form offers as the admin types: workspaces (or owners, templates) for the scope, root keys for a custom target. */
export type RunFieldCompletion = { scope: readonly string[]; roots: readonly string[] };

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
    <fieldset className="stack bare-fieldset" disabled={disabled}>
      <div className="row">
        <Select
          label="Recipe"
          aria-label="Recipe"
          value={custom ? CUSTOM.value : draft.recipe}
          options={[...choices.map((r) => ({ value: r.id, label: r.title })), CUSTOM]}
          onValue={(v) => onChange(withTarget(draft, v === CUSTOM.value ? "custom" : { recipe: v as RecipeId }))}
        />
        <span className="muted small">{custom ? CUSTOM_HINT : recipeOf(draft.recipe).description}</span>
      </div>
      {custom ? (
        <CustomTargetFields draft={draft} set={set} roots={completion?.roots} listId={`${lists}-roots`} />
      ) : null}
      <div className="row">
        {LIMITS.map((f) => (
          <NumberField key={f.key} {...f.field} min={0} value={draft[f.key]} onValue={(v) => set({ [f.key]: v })} />
        ))}
        <BoundedField
          label="Skip units changed within"
          unit="hours"
          aria-label="Minimum age hours"
          bounds={MIN_AGE_HOURS}
          width={70}
          value={draft.minAgeHours}
          onNumber={(minAgeHours) => set({ minAgeHours })}
        />
      </div>
      <CheckField
        className="small"
        aria-label="Count status changes"
        checked={draft.countStatusChanges}
        onChecked={(countStatusChanges) => set({ countStatusChanges })}
        label={<StatusChangesText />}
      />
      <ScopeRow
        draft={draft}
        set={set}
        workspacesByName={workspacesByName}
        completion={completion?.scope}
        listId={`${lists}-scope`}
      />
      <ActionRow draft={draft} set={set} />
    </fieldset>
  );
}
