"use client";

import type { ColumnDef } from "@tanstack/react-table";
import Link from "next/link";
import { useState } from "react";
import { agentLabel } from "@/components/agents/agent-label";
import { Bytes } from "@/components/ui/bytes";
import { column, DataTable } from "@/components/ui/data-table";
import type { UsageReport, UsageTableRow } from "@/lib/db/queries/usage-report";
import { formatCount } from "@/lib/format/numbers";
import type { UsageDimension } from "@/lib/validations/usage";

type Row = UsageTableRow & { isTotal?: boolean };
type Sort = "name" | "avg" | "peak" | "byteDays" | "growth" | "workspaces" | "freed";
const VALUE: Record<Exclude<Sort, "name">, (r: Row) => number> = {
  avg: (r) => r.avgBytes,
  peak: (r) => r.peakBytes,
  byteDays: (r) => r.byteDays,
  growth: (r) => r.growthBytes,
  workspaces: (r) => r.workspaces,
  freed: (r) => r.freedBytes,
};

/** A row's workspaces: the list filtered by the row's value (none for the row of workspaces without one). */
function workspacesHref(dimension: UsageDimension, key: string): string | null {
  return key ? `/workspaces?${new URLSearchParams({ [dimension]: key })}` : null;
}

const ByteDays = ({ value }: { value: number }) => (
  <span className="nowrap">
    <Bytes value={value} />
    -days
  </span>
);

/** The usage table: one row per dimension value, sortable by any column, the total always last. */
export function UsageTable({ data }: { data: UsageReport }) {
  const [sort, setSort] = useState<{ column: Sort; dir: "asc" | "desc" }>({ column: "byteDays", dir: "desc" });
  const sign = sort.dir === "asc" ? 1 : -1;
  const rows: Row[] = [...data.rows].sort((a, b) =>
    sort.column === "name"
      ? sign * a.label.localeCompare(b.label)
      : sign * (VALUE[sort.column](a) - VALUE[sort.column](b)),
  );
  rows.push({ ...data.total, label: "Total", isTotal: true });
  const name = (r: Row) => {
    const label = data.dimension === "agent" && r.key && !r.isTotal ? agentLabel(r.key) : r.label;
    const href = r.isTotal ? "/workspaces" : workspacesHref(data.dimension, r.key);
    return r.isTotal ? <strong>{label}</strong> : href ? <Link href={href}>{label}</Link> : label;
  };
  const columns: ColumnDef<Row>[] = [
    column(
      "name",
      data.dimension.replace(/^./, (c) => c.toUpperCase()),
      name,
    ),
    column("avg", "Average", (r) => <Bytes value={r.avgBytes} />, { className: "num" }),
    column("peak", "Peak", (r) => <Bytes value={r.peakBytes} />, { className: "num" }),
    column("byteDays", "Byte-days", (r) => <ByteDays value={r.byteDays} />, { className: "num" }),
    column("growth", "Growth", (r) => <Bytes value={r.growthBytes} delta />, { className: "num" }),
    column("workspaces", "Workspaces", (r) => formatCount(r.workspaces), { className: "num" }),
    column("freed", "Freed by cleanups", (r) => <Bytes value={r.freedBytes} />, { className: "num" }),
  ];
  return (
    <DataTable
      data={rows}
      columns={columns}
      rowId={(r) => (r.isTotal ? "\u0000total" : r.key)}
      testId="usage-table"
      stacked={6}
      rowProps={(r) => ({ "data-total": r.isTotal ? "true" : undefined })}
      sorting={{
        column: sort.column,
        dir: sort.dir,
        onSort: (c) =>
          setSort((s) => ({
            column: c as Sort,
            dir: s.column === c ? (s.dir === "asc" ? "desc" : "asc") : c === "name" ? "asc" : "desc",
          })),
      }}
    />
  );
}
