"use client";

import { useInfiniteQuery } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import Link from "next/link";
import { ErrorPanel } from "@/components/ui/error-panel";
import { ExportLink } from "@/components/ui/export-link";
import { Panel } from "@/components/ui/panel";
import { describeAuditDetails } from "@/lib/audit/describe";
import type { AuditEntry } from "@/lib/db/queries/audit";
import { auditOptions, type AuditFilterState } from "@/lib/query/admin";
import { exportPaths } from "@/lib/validations/export";
import { TextField } from "@/components/ui/field";
import { Select } from "@/components/ui/select";

/** The target by name, linked to it; as written (an email, a token's name) when it is one already. */
function Target({ entry }: { entry: AuditEntry }) {
  const named = entry.targetName;
  if (!named) return <>{entry.target ?? ""}</>;
  return named.href ? (
    <Link href={named.href} title={entry.target ?? undefined}>
      {named.label}
    </Link>
  ) : (
    <span title={entry.target ?? undefined}>{named.label}</span>
  );
}

const ACTIONS = [
  "auth.sign_in",
  "auth.sign_in_failed",
  "auth.sign_in_locked",
  "auth.sign_in_refused",
  "auth.sign_out",
  "user.created",
  "user.role_changed",
  "user.disabled",
  "user.enabled",
  "token.created",
  "token.revoked",
  "rules.updated",
  "workspace.token_reset",
  "enrollment_key.viewed",
  "enrollment_key.rotated",
  "export.downloaded",
  "cleanup.run_created",
  "cleanup.run_cancelled",
  "cleanup.jobs_claimed",
  "cleanup.job_result",
  "cleanup.job_interrupted",
  "cleanup.jobs_expired",
  "cleanup.restore_queued",
  "cleanup.trash_purge_queued",
  "cleanup.policy_created",
  "cleanup.policy_updated",
  "cleanup.policy_deleted",
  "cleanup.policy_confirmed",
  "cleanup.policy_held",
  "cleanup.policy_skipped",
  "settings.retention_changed",
];
const ACTION_CHOICES = [{ value: "", label: "any" }, ...ACTIONS.map((a) => ({ value: a, label: a }))];

/** The audit log, newest first, filtered by actor, action and time; more rows load by key. */
export function AuditView() {
  const [filters, setFilters] = useState<AuditFilterState>({});
  const query = useInfiniteQuery(auditOptions(filters));
  const entries = query.data?.pages.flatMap((p) => p.entries) ?? [];
  const apply = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const v = (k: string) => String(f.get(k) ?? "").trim() || undefined;
    setFilters({ actor: v("actor"), action: v("action"), from: v("from"), to: v("to") });
  };
  return (
    <Panel
      title="Events"
      actions={
        <ExportLink
          path={exportPaths.audit()}
          params={filters}
          title="Download every event under these filters as CSV"
        />
      }
    >
      <div className="stack">
        <form className="form-row" onSubmit={apply} aria-label="Filter the audit log">
          <TextField look="plain" label="Actor (email or token name)" name="actor" />
          <Select look="plain" label="Action" name="action" defaultValue="" options={ACTION_CHOICES} />
          <TextField look="plain" label="From" name="from" type="date" />
          <TextField look="plain" label="To" name="to" type="date" />
          <button type="submit" className="button">
            Filter
          </button>
        </form>
        {query.isError ? <ErrorPanel error={query.error} onRetry={() => query.refetch()} /> : null}
        <div className="table-wrap">
          <table className="table" data-testid="audit-table" aria-busy={query.isFetching}>
            <thead>
              <tr>
                <th>When (UTC)</th>
                <th>Who</th>
                <th>Action</th>
                <th>Target</th>
                <th>Details</th>
                <th>From</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((e) => (
                <tr key={e.id}>
                  <td className="nowrap">{e.at.replace("T", " ").slice(0, 19)}</td>
                  <td>
                    {e.actorLabel ?? "—"} <span className="muted small">{e.actorType}</span>
                  </td>
                  <td>
                    <code>{e.action}</code>
                  </td>
                  <td className="audit-target">
                    <Target entry={e} />
                  </td>
                  <td className="small audit-details">{describeAuditDetails(e.action, e.details)}</td>
                  <td className="small nowrap" title={e.userAgent ?? undefined}>
                    {e.ip ?? ""}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {!query.isPending && entries.length === 0 ? <p className="muted">No events match.</p> : null}
        {query.hasNextPage ? (
          <button
            type="button"
            className="button"
            disabled={query.isFetchingNextPage}
            onClick={() => query.fetchNextPage()}
          >
            Load older events
          </button>
        ) : null}
      </div>
    </Panel>
  );
}
