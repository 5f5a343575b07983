"use client";

import type { ColumnDef } from "@tanstack/react-table";
import Link from "next/link";
import type { TemplateCount } from "@/lib/db/queries/findings";
import { formatCount } from "@/lib/format/numbers";
import { Bytes } from "@/components/ui/bytes";
import { column, DataTable } from "@/components/ui/data-table";

/** A rule's findings one row per template, each opening that template's workspace rows (`href`). */
export function FindingsByTemplate({ rows, href }: { rows: TemplateCount[]; href: (template: string) => string }) {
  if (rows.length === 0) return null;
  const sized = rows.some((r) => r.bytes !== null);
  const columns: ColumnDef<TemplateCount>[] = [
    column("template", "Template", (r) =>
      r.template === null ? (
        <span className="cell-main">No template</span>
      ) : (
        <Link href={href(r.template)} className="cell-main">
          {r.template}
        </Link>
      ),
    ),
    column("count", "Findings", (r) => formatCount(r.count), { className: "num phone-first" }),
    column("workspaces", "Workspaces", (r) => formatCount(r.workspaces), { className: "num phone-first" }),
    ...(sized ? [column<TemplateCount>("bytes", "Size", (r) => <Bytes value={r.bytes} />, { className: "num" })] : []),
  ];
  return (
    <DataTable
      data={rows}
      columns={columns}
      rowId={(r) => r.template ?? ""}
      testId="findings-by-template"
      stacked={columns.length - 1}
      wrapStyle={{ marginBottom: 12 }}
    >
      <p className="muted small">Every workspace&apos;s rows follow, the most urgent first.</p>
    </DataTable>
  );
}
