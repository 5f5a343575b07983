"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useDeferredValue, useState } from "react";
import { RECIPES } from "@/lib/catalog/recipes";
import type { RunRequest } from "@/lib/cleanup/protocol";
import type { Policy } from "@/lib/db/queries/cleanup-policies";
import { POLICY_SCHEDULES, type PolicySchedule } from "@/lib/cleanup/types";
import { cleanupKeys, deletePolicy, patchPolicy, policyOptions, postPolicy, previewOptions, runPolicyNow } from "@/lib/query/cleanup";
import { useIsAdmin } from "@/components/auth/caller-context";
import { Panel } from "@/components/ui/panel";
import { ErrorPanel } from "@/components/ui/error-panel";
import { QueryView, Skeleton } from "@/components/ui/states";
import { RelativeTime } from "@/components/ui/time";
import { PreviewTable } from "./preview-table";
import { defaultDraft, draftFrom, requestOf, RunFields, type RunDraft } from "./run-fields";

type PolicyDraft = { name: string; schedule: PolicySchedule; enabled: boolean; run: RunDraft };

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

function PolicyForm({ initial, onSave, saving, error, disabled, preview }: {
  initial: PolicyDraft;
  onSave: (d: PolicyDraft) => void;
  saving: boolean;
  error: string | null;
  disabled?: boolean;
  /** Preview the draft as it is edited (the new policy form; a saved policy's page previews it apart). */
  preview?: boolean;
}) {
  const [draft, setDraft] = useState(initial);
  const request = requestOf(draft.run);
  return (
    <div className="stack" style={{ gap: 10 }}>
      <fieldset className="row" disabled={disabled} style={{ border: 0, padding: 0, margin: 0 }}>
        <label className="field">
          Name
          <input type="text" aria-label="Policy name" value={draft.name} onChange={(e) => setDraft({ ...draft, name: e.target.value })} />
        </label>
        <label className="field">
          Schedule
          <select aria-label="Schedule" value={draft.schedule} onChange={(e) => setDraft({ ...draft, schedule: e.target.value as PolicySchedule })}>
            {POLICY_SCHEDULES.map((s) => <option key={s} value={s}>{s}</option>)}
          </select>
        </label>
        <label className="field">
          <input type="checkbox" checked={draft.enabled} onChange={(e) => setDraft({ ...draft, enabled: e.target.checked })} />
          Enabled
        </label>
      </fieldset>
      <RunFields draft={draft.run} onChange={(run) => setDraft({ ...draft, run })} disabled={disabled} />
      {typeof request === "string" ? <p className="muted">{request}</p> : null}
      {preview ? <DraftPreview request={typeof request === "string" ? null : request} /> : null}
      {error ? <p className="error-message" role="alert">{error}</p> : null}
      {disabled ? null : (
        <button type="button" className="button primary" style={{ alignSelf: "flex-start" }} disabled={saving || typeof request === "string" || !draft.name.trim()} onClick={() => onSave(draft)}>
          Save policy
        </button>
      )}
    </div>
  );
}

function bodyOf(d: PolicyDraft) {
  const request = requestOf(d.run);
  if (typeof request === "string") throw new Error(request);
  return { ...request, name: d.name.trim(), schedule: d.schedule, enabled: d.enabled, expiresDays: 7 };
}

/** /cleanup/policies/new */
export function NewPolicy() {
  const router = useRouter();
  const client = useQueryClient();
  const create = useMutation({
    mutationFn: (d: PolicyDraft) => postPolicy({ ...bodyOf(d), dryRun: d.run.dryRun, trashDays: d.run.trashDays, minAgeHours: d.run.minAgeHours }),
    onSuccess: async ({ policy }) => {
      await client.invalidateQueries({ queryKey: cleanupKeys.policies() });
      router.push(`/cleanup/policies/${policy.id}`);
    },
  });
  const initial: PolicyDraft = { name: "", schedule: "weekly", enabled: true, run: defaultDraft(RECIPES[0].id) };
  return (
    <Panel title="New policy">
      <PolicyForm initial={initial} onSave={(d) => create.mutate(d)} saving={create.isPending} error={create.error?.message ?? null} preview />
    </Panel>
  );
}

function PolicyActions({ policy }: { policy: Policy }) {
  const router = useRouter();
  const client = useQueryClient();
  const run = useMutation({ mutationFn: () => runPolicyNow(policy.id), onSuccess: ({ id }) => router.push(`/cleanup/runs/${id}`) });
  const remove = useMutation({
    mutationFn: () => deletePolicy(policy.id),
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: cleanupKeys.policies() });
      router.push("/cleanup");
    },
  });
  return (
    <div className="row">
      <button type="button" className="button primary" disabled={run.isPending} onClick={() => run.mutate()}>Run now</button>
      <button type="button" className="button" disabled={remove.isPending} onClick={() => { if (window.confirm(`Delete the policy "${policy.name}"? Its past runs stay.`)) remove.mutate(); }}>
        Delete policy
      </button>
      {run.error ? <span className="error-message">{run.error.message}</span> : null}
      {remove.error ? <span className="error-message">{remove.error.message}</span> : null}
    </div>
  );
}

/** /cleanup/policies/[id]: the policy, its next run previewed now; admins edit, run it now or delete it. */
export function PolicyView({ id }: { id: string }) {
  const query = useQuery(policyOptions(id));
  const isAdmin = useIsAdmin();
  const client = useQueryClient();
  const save = useMutation({
    mutationFn: (d: PolicyDraft) => patchPolicy(id, { ...bodyOf(d), dryRun: d.run.dryRun, trashDays: d.run.trashDays, minAgeHours: d.run.minAgeHours }),
    onSuccess: () => client.invalidateQueries({ queryKey: cleanupKeys.all }),
  });
  return (
    <QueryView query={query} height={300}>
      {({ policy, preview }) => (
        <div className="stack">
          <div className="page-head">
            <div>
              <h1>{policy.name}</h1>
              <p className="sub">
                {policy.enabled ? policy.schedule : "disabled"} · next run {policy.nextRunAt ? <RelativeTime value={policy.nextRunAt} /> : "never by itself"} · last run{" "}
                {policy.lastRunAt ? <RelativeTime value={policy.lastRunAt} /> : "never"} · created by {policy.createdBy}
              </p>
            </div>
            {isAdmin ? <PolicyActions policy={policy} /> : null}
          </div>
          <Panel title="Its next run, if it ran now">
            <PreviewTable preview={preview} />
          </Panel>
          <Panel title="Policy">
            <PolicyForm
              key={policy.updatedAt}
              initial={{ name: policy.name, schedule: policy.schedule, enabled: policy.enabled, run: draftFrom(policy) }}
              onSave={(d) => save.mutate(d)}
              saving={save.isPending}
              error={save.error?.message ?? null}
              disabled={!isAdmin}
            />
          </Panel>
        </div>
      )}
    </QueryView>
  );
}
