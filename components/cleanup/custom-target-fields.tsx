"use client";

import { withCustom, type RunDraft } from "@/lib/cleanup/run-draft";
import { TextField } from "@/components/ui/field";
import { Select } from "@/components/ui/select";

const UNITS = [
  { value: "file", label: "a file" },
  { value: "dir", label: "a folder, with everything in it" },
];

/** A custom target: the root (a report's root key), the glob inside it, and whether a match is a file or a whole folder. */
export function CustomTargetFields({
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
      <TextField
        label="Root"
        aria-label="Custom root"
        placeholder="root key, e.g. codex:data"
        value={c.rootKey}
        list={roots ? listId : undefined}
        autoComplete="off"
        width={220}
        // inside a package cache the action can only be delete (withCustom)
        onValue={(rootKey) => set(withCustom(draft, { ...c, rootKey }))}
      />
      {roots ? <Options id={listId} values={roots} /> : null}
      <TextField
        label="Glob"
        aria-label="Custom glob"
        placeholder="e.g. cache/**/*.tmp"
        value={c.glob}
        autoComplete="off"
        width={220}
        onValue={(glob) => set({ custom: { ...c, glob } })}
      />
      <Select
        label="Each match is"
        aria-label="Custom unit"
        value={c.unit}
        options={UNITS}
        onValue={(unit) => set({ custom: { ...c, unit: unit as RunDraft["custom"]["unit"] } })}
      />
    </div>
  );
}

/** What a text input offers as the admin types. */
export function Options({ id, values }: { id: string; values: readonly string[] }) {
  return (
    <datalist id={id}>
      {values.map((v) => (
        <option key={v} value={v} />
      ))}
    </datalist>
  );
}
