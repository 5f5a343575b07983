"use client";

import { createColumnHelper } from "@tanstack/react-table";
import Link from "next/link";
import type { VolumeSummary } from "@/lib/db/queries/volume";
import type { WorkspaceListRow } from "@/lib/db/queries/workspace-list";
import { formatDays, formatPercent } from "@/lib/format/numbers";
import { fullInText } from "@/lib/format/full-in";
import { dfSummary } from "@/lib/format/volume";
import { agentLabel } from "@/components/agents/agent-label";
import { agentColor } from "@/components/charts/palette";
import { CoderStatus } from "@/components/coder/coder-status";
import { Sparkline } from "@/components/charts/sparkline";
import { Bytes } from "@/components/ui/bytes";
import { RelativeTime } from "@/components/ui/time";

const col = createColumnHelper<WorkspaceListRow>();

/** df's Use% with a bar; the title carries df's own columns so the figure can be checked against df. */
export function VolumeBar({ volume }: { volume: VolumeSummary | null }) {
  if (volume === null) return <span className="muted">—</span>;
  const percent = volume.usePercent;
  const cls = volume.full || percent >= 90 ? "bar danger" : percent >= 75 ? "bar warn" : "bar";
  return (
    <span className="row" style={{ gap: 6, flexWrap: "nowrap", justifyContent: "flex-end" }} title={dfSummary(volume)}>
      <span className={cls} style={{ width: 60 }}>
        <span style={{ width: `${Math.min(100, Math.max(0, percent))}%` }} />
      </span>
      <span>{formatPercent(percent / 100)}</span>
    </span>
  );
}

/** Column ids are the API's sort columns, so react-table's sorting state maps straight to the URL. */
export const workspaceColumns = [
  col.accessor("name", {
    header: "Workspace",
    cell: ({ row }) => (
      <Link href={`/workspaces/${encodeURIComponent(row.original.id)}`} className="cell-main nowrap">
        {row.original.name}
      </Link>
    ),
  }),
  col.accessor("owner", {
    header: "Owner",
    cell: (c) => <Link href={`/workspaces?owner=${encodeURIComponent(c.getValue())}`}>{c.getValue()}</Link>,
  }),
  col.accessor("template", {
    header: "Template",
    cell: (c) => (c.getValue() ? <span className="nowrap">{c.getValue()}</span> : <span className="muted">—</span>),
  }),
  col.accessor("totalBytes", {
    id: "total",
    header: "Total",
    meta: { className: "num phone-first" },
    cell: (c) => <Bytes value={c.getValue()} />,
  }),
  col.accessor("change7dBytes", {
    id: "change7d",
    header: "7 d change",
    meta: { className: "num" },
    cell: (c) => <Bytes value={c.getValue()} delta />,
  }),
  col.display({
    id: "trend",
    header: "30 d trend",
    enableSorting: false,
    cell: ({ row }) => (
      <Sparkline values={row.original.sparkline} label={`Total of ${row.original.name} over 30 days`} />
    ),
  }),
  col.accessor("largestAgent", {
    header: "Largest agent",
    cell: ({ row }) =>
      row.original.largestAgent ? (
        // The figure may go under the name: on a desk the table must fit beside eleven columns.
        <>
          <span className="nowrap">
            <span className="swatch" style={{ background: agentColor(row.original.largestAgent) }} />
            {agentLabel(row.original.largestAgent)}
          </span>{" "}
          <span className="muted small nowrap">
            <Bytes value={row.original.largestAgentBytes} />
          </span>
        </>
      ) : (
        <span className="muted">—</span>
      ),
  }),
  col.accessor((r) => r.volume?.usePercent ?? null, {
    id: "volumeUsed",
    header: "Use%",
    meta: { className: "num phone-first" },
    cell: ({ row }) => <VolumeBar volume={row.original.volume} />,
  }),
  col.accessor("daysUntilFull", {
    header: "Full in",
    meta: { className: "num phone-first" },
    cell: ({ row }) => {
      const d = row.original.daysUntilFull;
      // "full" only with no space left; past the full rule's threshold with space left, what is left.
      const v = row.original.volume;
      const text = v ? fullInText(v, d) : d === null ? "—" : formatDays(d);
      if (text === "—") return <span className="muted">—</span>;
      const critical = text === "full" || text === "no inodes" || v?.full || v?.inodesFull || (d !== null && d <= 7);
      return (
        <span
          className={critical ? "badge critical" : d !== null && d <= 30 ? "badge warning" : undefined}
          title={row.original.forecastFullAt ?? undefined}
        >
          {text}
        </span>
      );
    },
  }),
  col.display({
    id: "coder",
    header: "In Coder",
    enableSorting: false,
    cell: ({ row }) => <CoderStatus coder={row.original.coder} />,
  }),
  col.accessor("lastCollectedAt", {
    id: "lastReport",
    header: "Last report",
    meta: { className: "num" },
    cell: ({ row }) => (
      <span className={row.original.silent ? "delta up" : undefined}>
        {row.original.lastCollectedAt ? <RelativeTime value={row.original.lastCollectedAt} /> : "never"}
      </span>
    ),
  }),
];
