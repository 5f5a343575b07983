"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { confirmGate } from "@/lib/cleanup/confirm-gate";
import { RUNAWAY_FACTOR } from "@/lib/cleanup/confirmation";
import type { CleanupPreview } from "@/lib/db/queries/cleanup-preview";
import type { LastRun, Policy } from "@/lib/services/cleanup-policies";
import { formatBytes } from "@/lib/format/bytes";
import { formatCount, formatCountOf as plural } from "@/lib/format/numbers";
import { useConfirmPolicy, useDeletePolicy, useRunPolicyNow } from "@/lib/query/use-cleanup-mutations";
import { Bytes } from "@/components/ui/bytes";
import { RelativeTime } from "@/components/ui/time";
import { ConfirmRunDialog } from "./confirm-run-dialog";
import { confirmLabel, runConsequence, scopeText } from "./run-text";
import { Button } from "@/components/ui/button";

const verbOf = (p: Policy) => (p.action === "delete" ? "delete" : "trash");
/** "trash 47.2 GiB from 127 workspaces" */
const figureText = (p: Policy, bytes: number, workspaces: number) =>
  `${verbOf(p)} ${formatBytes(bytes)} from ${plural(workspaces, "workspace")}`;

/**
 * Whether the policy's scheduled runs act: a dry-run policy only reports; otherwise nothing is removed before
 * an admin confirmed the figure its preview shows, and a run far above that figure is held.
 */
export function PolicyStatus({ policy, lastRun }: { policy: Policy; lastRun: LastRun | null }) {
  return (
    <div className="stack tight" data-testid="policy-status">
      {policy.dryRun ? (
        <p data-state="dry-run">A dry-run policy: its runs report what they would remove and change nothing.</p>
      ) : policy.held ? (
        <p className="notice warn" data-state="held" role="status">
          <strong>Held</strong> <RelativeTime value={policy.held.at} />: its scheduled run would have had to{" "}
          {figureText(policy, policy.held.bytes, policy.held.workspaces)}, more than {RUNAWAY_FACTOR}× the{" "}
          {policy.confirmed
            ? `${formatBytes(policy.confirmed.bytes)} from ${plural(policy.confirmed.workspaces, "workspace")}`
            : "figure"}{" "}
          that was confirmed. Nothing runs until an admin confirms the new figure.
        </p>
      ) : policy.confirmed ? (
        <p data-state="confirmed">
          <strong>Confirmed</strong> by {policy.confirmed.by} <RelativeTime value={policy.confirmed.at} />:{" "}
          {figureText(policy, policy.confirmed.bytes, policy.confirmed.workspaces)}, {policy.scheduleText}. A scheduled
          run whose preview is more than {RUNAWAY_FACTOR}× that (bytes or workspaces) is held for a new confirmation.
        </p>
      ) : (
        <p className="notice" data-state="unconfirmed">
          <strong>Awaiting confirmation.</strong> Until an admin confirms the figure below, its scheduled runs are dry
          runs: they report what they would free and change nothing.
        </p>
      )}
      {lastRun ? (
        <p className="muted" data-testid="last-run">
          Last run{" "}
          <Link href={`/cleanup/runs/${lastRun.id}`}>
            <RelativeTime value={lastRun.createdAt} />
          </Link>
          {lastRun.dryRun ? " (dry run)" : ""}: {lastRun.dryRun ? "would free " : "freed "}
          <Bytes value={lastRun.bytes} /> in {plural(lastRun.units, "unit")}
          {lastRun.finished < lastRun.jobs
            ? `, ${formatCount(lastRun.finished)} of ${plural(lastRun.jobs, "workspace")} reported so far`
            : ` from ${plural(lastRun.jobs, "workspace")}`}
          .
        </p>
      ) : null}
    </div>
  );
}

/** Confirm (arms the schedule), Run now (one run at once), Delete: the first two state the figure they act on. */
export function PolicyActions({ policy, preview }: { policy: Policy; preview: CleanupPreview }) {
  const router = useRouter();
  const figure = preview.total;
  const confirm = useConfirmPolicy(policy.id);
  const run = useRunPolicyNow(policy.id, { onSuccess: ({ id }) => router.push(`/cleanup/runs/${id}`) });
  const remove = useDeletePolicy(policy.id, { onSuccess: () => router.push("/cleanup") });
  const needsConfirmation =
    !policy.dryRun && (policy.confirmed === null || policy.held !== null) && policy.schedule !== "off";
  const text = figureText(policy, figure.bytes, figure.workspaces);
  const [asking, setAsking] = useState(false);
  const one = figure.workspaces === 1 && preview.workspaces[0] ? preview.workspaces[0] : null;
  const gate = confirmGate({ dryRun: policy.dryRun, ...figure }, one ? `${one.owner}/${one.name}` : undefined);
  return (
    <div className="stack" style={{ gap: 6, alignItems: "flex-end" }}>
      <div className="row">
        {needsConfirmation && figure.bytes > 0 ? (
          <Button variant="primary" pending={confirm.isPending} onClick={() => confirm.mutate(figure.bytes)}>
            Confirm: {text}, {policy.scheduleText}
          </Button>
        ) : null}
        {figure.bytes > 0 ? (
          <Button
            data-testid="run-policy-now"
            pending={run.isPending}
            onClick={() => (gate.kind === "none" ? run.mutate(figure.bytes) : setAsking(true))}
          >
            Run now: {policy.dryRun ? `dry run of ${formatBytes(figure.bytes)}` : text}
          </Button>
        ) : (
          <span className="muted small">Nothing to run or confirm now: it selects nothing.</span>
        )}
        <Button
          pending={remove.isPending}
          onClick={() => {
            if (window.confirm(`Delete the policy "${policy.name}"? Its past runs stay.`)) remove.mutate();
          }}
        >
          Delete policy
        </Button>
      </div>
      {figure.bytes > 0 ? (
        <span className="muted small" data-testid="run-now-note">
          {policy.dryRun
            ? "Run now queues one dry run at once; it changes nothing."
            : `Run now queues one real run at once, after its own confirmation of this figure; it does not confirm the schedule${needsConfirmation ? ", whose runs stay dry runs until confirmed" : ""}.`}
        </span>
      ) : null}
      {asking ? (
        <ConfirmRunDialog
          title={confirmLabel(verbOf(policy), false, figure, policy.custom !== null)}
          scope={scopeText(policy.scope)}
          consequence={runConsequence(verbOf(policy), policy.trashDays, policy.recipe)}
          gate={gate}
          pending={run.isPending}
          error={run.error?.message}
          onConfirm={() => run.mutate(figure.bytes)}
          onClose={() => setAsking(false)}
        />
      ) : null}
      {[confirm.error, run.error, remove.error].map((e, i) =>
        e ? (
          <span key={i} className="error-message" role="alert">
            {e.message}
          </span>
        ) : null,
      )}
    </div>
  );
}
