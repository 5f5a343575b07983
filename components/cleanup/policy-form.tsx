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

/** What the draft's run would act on if it ran now: reviewed before a new policy is saved (and audited, like any preview). */
function DraftPreview({ request }: { request: RunRequest | null }) {
  const deferred = useDeferredValue(request);
  const preview = useQuery(previewOptions(deferred));
  if (!deferred) return null;
  return (
    <div className="stack" style={{ gap: 6 }} data-testid="policy-preview">
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
      <label className="field">
        Schedule
        <select
          aria-label="Schedule"
          value={draft.schedule}
          onChange={(e) => set({ schedule: e.target.value as PolicySchedule })}
        >
          {POLICY_SCHEDULES.map((s) => (
            <option key={s} value={s}>
              {SCHEDULE_LABELS[s]}
            </option>
          ))}
        </select>
      </label>
      {draft.schedule === "weekly" ? (
        <label className="field">
          On
          <select
            aria-label="Weekday"
            value={draft.runWeekday}
            onChange={(e) => set({ runWeekday: Number(e.target.value) })}
          >
            {[1, 2, 3, 4, 5, 6, 0].map((d) => (
              <option key={d} value={d}>
                {weekdayName(d)}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      {draft.schedule !== "off" ? (
        <label className="field">
          At
          <input
            type="time"
            aria-label="Time (UTC)"
            value={clockOf(draft.runAtMinute)}
            onChange={(e) => {
              const m = minuteOf(e.target.value);
              if (m !== null) set({ runAtMinute: m });
            }}
          />
          UTC
        </label>
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
    <div className="stack" style={{ gap: 10 }}>
      <fieldset className="row" disabled={disabled} style={{ border: 0, padding: 0, margin: 0 }}>
        <label className="field">
          Name
          <input
            type="text"
            aria-label="Policy name"
            value={draft.name}
            onChange={(e) => set({ name: e.target.value })}
          />
        </label>
        <ScheduleFields draft={draft} set={set} />
        <label className="field">
          <input type="checkbox" checked={draft.enabled} onChange={(e) => set({ enabled: e.target.checked })} />
          Enabled
        </label>
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
        <button
          type="button"
          className="button primary"
          style={{ alignSelf: "flex-start" }}
          disabled={saving || !built.ok || !draft.name.trim()}
          onClick={() => built.ok && onSave(draft, built.request)}
        >
          Save policy
        </button>
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
