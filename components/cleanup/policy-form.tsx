"use client";

import { useQuery } from "@tanstack/react-query";
import { useDeferredValue, useState } from "react";
import type { RunRequest } from "@/lib/cleanup/protocol";
import { clockOf, describeSchedule, weekdayName } from "@/lib/cleanup/schedule";
import { DEFAULT_EXPIRES_DAYS, POLICY_SCHEDULES, type PolicySchedule } from "@/lib/cleanup/types";
import { previewOptions } from "@/lib/query/cleanup";
import { ErrorPanel } from "@/components/ui/error-panel";
import { Skeleton } from "@/components/ui/states";
import { PreviewTable } from "./preview-table";
import { runRequestOf, type DraftRequest, type RunDraft } from "@/lib/cleanup/run-draft";
import { RunFields } from "./run-fields";
import { useScopeLookup } from "./use-scope-lookup";
import { CheckField, TextField } from "@/components/ui/field";
import { Select } from "@/components/ui/select";
import { Button } from "@/components/ui/button";

export type PolicyDraft = {
  name: string;
  schedule: PolicySchedule;
  runAtMinute: number;
  runWeekday: number;
  enabled: boolean;
  run: RunDraft;
};

const SCHEDULE_LABELS: Record<PolicySchedule, string> = {
  off: "Only when run by hand",
  daily: "Every day",
  weekly: "Every week",
};
const SCHEDULES = POLICY_SCHEDULES.map((s) => ({ value: s, label: SCHEDULE_LABELS[s] }));
/** Monday first. */
const WEEKDAYS = [1, 2, 3, 4, 5, 6, 0].map((d) => ({ value: d, label: weekdayName(d) }));

/** What the draft's run would act on if it ran now: reviewed before a new policy is saved (and audited, like any preview). */
function DraftPreview({ request }: { request: RunRequest | null }) {
  const deferred = useDeferredValue(request);
  const preview = useQuery(previewOptions(deferred));
  if (!deferred) return null;
  return (
    <div className="stack tight" data-testid="policy-preview">
      <strong>If it ran now</strong>
      {preview.isPending ? <Skeleton height={60} /> : null}
      {preview.isError ? <ErrorPanel error={preview.error} onRetry={() => void preview.refetch()} /> : null}
      {preview.data ? <PreviewTable preview={preview.data} /> : null}
    </div>
  );
}

/** "03:00" ↔ minutes after midnight, for the time input. */
const minuteOf = (clock: string) => {
  const [h, m] = clock.split(":").map(Number);
  return Number.isInteger(h) && Number.isInteger(m) ? h * 60 + m : null;
};

function ScheduleFields({ draft, set }: { draft: PolicyDraft; set: (patch: Partial<PolicyDraft>) => void }) {
  return (
    <>
      <Select
        label="Schedule"
        aria-label="Schedule"
        value={draft.schedule}
        options={SCHEDULES}
        onValue={(v) => set({ schedule: v as PolicySchedule })}
      />
      {draft.schedule === "weekly" ? (
        <Select
          label="On"
          aria-label="Weekday"
          value={draft.runWeekday}
          options={WEEKDAYS}
          onValue={(v) => set({ runWeekday: Number(v) })}
        />
      ) : null}
      {draft.schedule !== "off" ? (
        <TextField
          label="At"
          unit="UTC"
          type="time"
          aria-label="Time (UTC)"
          value={clockOf(draft.runAtMinute)}
          onValue={(v) => {
            const m = minuteOf(v);
            if (m !== null) set({ runAtMinute: m });
          }}
        />
      ) : null}
      <span className="muted small" data-testid="schedule-text">
        {describeSchedule(draft)}
      </span>
    </>
  );
}

export function PolicyForm({
  initial,
  onSave,
  saving,
  error,
  disabled,
  preview,
}: {
  initial: PolicyDraft;
  /** Called with the draft's request (workspaces typed by name resolved to ids). */
  onSave: (d: PolicyDraft, request: RunRequest) => void;
  saving: boolean;
  error: string | null;
  disabled?: boolean;
  /** Preview the draft as it is edited (the new policy form; a saved policy's page previews it apart). */
  preview?: boolean;
}) {
  const [draft, setDraft] = useState(initial);
  const set = (patch: Partial<PolicyDraft>) => setDraft({ ...draft, ...patch });
  const lookup = useScopeLookup(draft.run);
  const built: DraftRequest = runRequestOf(draft.run, lookup.resolve);
  return (
    <div className="stack roomy">
      <fieldset className="row bare-fieldset" disabled={disabled}>
        <TextField label="Name" aria-label="Policy name" value={draft.name} onValue={(name) => set({ name })} />
        <ScheduleFields draft={draft} set={set} />
        <CheckField checked={draft.enabled} onChecked={(enabled) => set({ enabled })} label="Enabled" />
      </fieldset>
      <RunFields
        draft={draft.run}
        onChange={(run) => set({ run })}
        disabled={disabled}
        completion={lookup.completion}
        workspacesByName
      />
      {built.ok ? null : <p className="muted">{built.problem}</p>}
      {preview ? <DraftPreview request={built.ok ? built.request : null} /> : null}
      {error ? (
        <p className="error-message" role="alert">
          {error}
        </p>
      ) : null}
      {disabled ? null : (
        <Button
          variant="primary"
          className="self-start"
          disabled={!built.ok || !draft.name.trim()}
          pending={saving}
          onClick={() => built.ok && onSave(draft, built.request)}
        >
          Save policy
        </Button>
      )}
    </div>
  );
}

/** The request body of a policy: its run request and its own fields. */
export function bodyOf(d: PolicyDraft, request: RunRequest) {
  return {
    ...request,
    name: d.name.trim(),
    schedule: d.schedule,
    runAtMinute: d.runAtMinute,
    runWeekday: d.runWeekday,
    enabled: d.enabled,
    expiresDays: DEFAULT_EXPIRES_DAYS,
  };
}
