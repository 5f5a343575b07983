"use client";

import { useInfiniteQuery } from "@tanstack/react-query";
import type { ColumnDef } from "@tanstack/react-table";
import Link from "next/link";
import { useSearchParams } from "next/navigation";
import { useMemo, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { column, DataTable } from "@/components/ui/data-table";
import { DataTableMore } from "@/components/ui/data-table-pager";
import { ErrorPanel } from "@/components/ui/error-panel";
import { ExportLink } from "@/components/ui/export-link";
import { TextField } from "@/components/ui/field";
import { Panel } from "@/components/ui/panel";
import { Select } from "@/components/ui/select";
import { useSetSearchParams } from "@/components/ui/use-set-search-params";
import type { NoticeLogRow } from "@/lib/db/queries/notification-log";
import { NOTICE_CHANNELS, NOTICE_KINDS } from "@/lib/notify/types";
import { notificationsOptions } from "@/lib/query/notifications";
import { exportPaths } from "@/lib/validations/export";
import { NOTICE_STATUSES, parseNoticeSearchParams, type NoticePageFilters } from "@/lib/validations/notifications";
import { ChannelsPanel } from "./channels-panel";
import { KIND_LABELS, NoticeStatus, utcTime } from "./notice-badges";

const any = { value: "", label: "any" };
const choices = (values: readonly string[], label: (v: string) => string = (v) => v) => [
  any,
  ...values.map((v) => ({ value: v, label: label(v) })),
];

const columns: ColumnDef<NoticeLogRow>[] = [
  column("at", "Decided (UTC)", (n) => utcTime(n.createdAt), { cellClassName: "nowrap" }),
  column("workspace", "Workspace", (n) => (
    <>
      <Link href={`/workspaces/${encodeURIComponent(n.workspaceId)}`}>{n.workspaceName}</Link>{" "}
      <span className="muted small">{n.owner}</span>
    </>
  )),
  column("kind", "Kind", (n) => (
    <>
      {KIND_LABELS[n.kind]} <span className="muted small">{n.figure}</span>
    </>
  )),
  column("channel", "Channel", (n) => n.channel),
  column("state", "State", (n) => (
    <>
      <NoticeStatus status={n.status} />
      {n.waitingForStart ? (
        <div className="muted small" data-testid="waiting-for-start">
          waiting for the workspace to start
        </div>
      ) : null}
      {n.lastError ? <div className="critical-text small">{n.lastError}</div> : null}
    </>
  )),
  column("sent", "Sent (UTC)", (n) => utcTime(n.sentAt), { cellClassName: "nowrap small" }),
  column("attempts", "Tries", (n) => n.attempts, { className: "num" }),
];

/** The filters as a form: applied together (the text would otherwise refetch at every key). */
function Filters({ filters, onApply }: { filters: NoticePageFilters; onApply: (f: NoticePageFilters) => void }) {
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const v = (k: string) => String(f.get(k) ?? "").trim() || undefined;
    onApply(parseNoticeSearchParams({ q: v("q"), kind: v("kind"), channel: v("channel"), status: v("status") }));
  };
  // Keyed by the URL's filters, so going back in history shows them.
  return (
    <form className="form-row" onSubmit={submit} aria-label="Filter the notices" key={JSON.stringify(filters)}>
      <TextField look="plain" label="Owner or workspace" name="q" defaultValue={filters.q ?? ""} />
      <Select
        look="plain"
        label="Kind"
        name="kind"
        defaultValue={filters.kind ?? ""}
        options={choices(NOTICE_KINDS, (k) => KIND_LABELS[k as NoticeLogRow["kind"]])}
      />
      <Select
        look="plain"
        label="Channel"
        name="channel"
        defaultValue={filters.channel ?? ""}
        options={choices(NOTICE_CHANNELS)}
      />
      <Select
        look="plain"
        label="State"
        name="status"
        defaultValue={filters.status ?? ""}
        options={choices(NOTICE_STATUSES)}
      />
      <Button type="submit">Filter</Button>
    </form>
  );
}

/** The channels and the last 30 days' notices, filtered by the URL's parameters, more rows by key. */
export function NotificationsView() {
  const searchParams = useSearchParams();
  const filters = useMemo(() => parseNoticeSearchParams(searchParams), [searchParams]);
  const setParams = useSetSearchParams();
  const query = useInfiniteQuery(notificationsOptions(filters));
  const notices = query.data?.pages.flatMap((p) => p.notices) ?? [];
  const channels = query.data?.pages[0]?.channels;
  const apply = (f: NoticePageFilters) =>
    setParams({ q: f.q ?? null, kind: f.kind ?? null, channel: f.channel ?? null, status: f.status ?? null });
  return (
    <div className="stack">
      {channels ? <ChannelsPanel channels={channels} /> : null}
      <Panel
        title="Notices of the last 30 days"
        actions={
          <ExportLink
            path={exportPaths.notifications()}
            params={filters}
            title="Download every notice under these filters as CSV"
          />
        }
      >
        <div className="stack">
          <Filters filters={filters} onApply={apply} />
          {query.isError ? <ErrorPanel error={query.error} onRetry={() => query.refetch()} /> : null}
          <DataTable
            data={notices}
            columns={columns}
            rowId={(n) => n.id}
            testId="notices-table"
            stacked={4}
            busy={query.isFetching}
            empty={query.isPending ? null : <p className="muted">No notice matches.</p>}
            emptyUnderHeader
          />
          <DataTableMore query={query}>Load older notices</DataTableMore>
        </div>
      </Panel>
    </div>
  );
}
