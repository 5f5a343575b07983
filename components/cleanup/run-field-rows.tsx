"use client";

import type { ComponentProps } from "react";
import { clampTo, TRASH_DAYS } from "@/lib/cleanup/defaults";
import { draftOnlyDeleted, type RunDraft, type ScopeKind } from "@/lib/cleanup/run-draft";
import { CheckField, NumberField } from "@/components/ui/field";
import { Select } from "@/components/ui/select";
import { Options } from "./custom-target-fields";
import { ACTIONS, scopeKinds } from "./run-field-choices";

/** A whole number kept within its setting's bounds as it is typed. */
export function BoundedField({
  bounds,
  onNumber,
  ...field
}: Omit<ComponentProps<typeof NumberField>, "min" | "max" | "onValue"> & {
  bounds: { min: number; max: number };
  onNumber: (n: number) => void;
}) {
  return (
    <NumberField {...field} min={bounds.min} max={bounds.max} onValue={(v) => onNumber(clampTo(bounds, Number(v)))} />
  );
}

type RowProps = { draft: RunDraft; set: (patch: Partial<RunDraft>) => void };

/** Where a run acts: the whole fleet, or the workspaces (owners, templates) typed, offered from `completion`. */
export function ScopeRow({
  draft,
  set,
  workspacesByName,
  completion,
  listId,
}: RowProps & { workspacesByName?: boolean; completion?: readonly string[]; listId: string }) {
  const byName = draft.scopeKind === "workspaceIds" && workspacesByName;
  return (
    <div className="row">
      <Select
        label="Scope"
        aria-label="Scope"
        value={draft.scopeKind}
        options={scopeKinds(workspacesByName)}
        onValue={(v) => set({ scopeKind: v as ScopeKind })}
      />
      {draft.scopeKind !== "all" ? (
        <>
          <input
            type="text"
            aria-label="Scope values"
            placeholder={byName ? "names or owner/name, comma-separated" : "comma-separated"}
            value={draft.scopeValues}
            list={completion ? listId : undefined}
            autoComplete="off"
            className="scope-values"
            onChange={(e) => set({ scopeValues: e.target.value })}
          />
          {completion ? <Options id={listId} values={completion} /> : null}
        </>
      ) : null}
    </div>
  );
}

/** What a run does with what it selects: trash (kept so many days) or delete, or only report (dry run). */
export function ActionRow({ draft, set }: RowProps) {
  return (
    <div className="row">
      <Select
        label="Action"
        aria-label="Action"
        value={draft.action}
        options={draftOnlyDeleted(draft) ? ACTIONS.filter((a) => a.value === "delete") : ACTIONS}
        onValue={(v) => set({ action: v as RunDraft["action"] })}
      />
      {draft.action === "trash" ? (
        <BoundedField
          label="Keep in trash"
          unit="days"
          aria-label="Trash days"
          bounds={TRASH_DAYS}
          width={60}
          value={draft.trashDays}
          onNumber={(trashDays) => set({ trashDays })}
        />
      ) : null}
      <CheckField
        checked={draft.dryRun}
        onChecked={(dryRun) => set({ dryRun })}
        label="Dry run (report what would go, change nothing)"
      />
    </div>
  );
}
