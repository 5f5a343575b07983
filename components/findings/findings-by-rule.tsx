"use client";

import type { ColumnDef } from "@tanstack/react-table";
import Link from "next/link";
import type { FindingCounts, Rule } from "@/lib/db/queries/findings";
import { SEVERITIES } from "@/lib/findings/finding";
import { formatCount } from "@/lib/format/numbers";
import { Bytes } from "@/components/ui/bytes";
import { column, DataTable } from "@/components/ui/data-table";

type RuleCount = FindingCounts["byRule"][number] & { title: string };

const columns: ColumnDef<RuleCount>[] = [
  column("rule", "Rule", (r) => (
    <Link href={`/findings?rule=${encodeURIComponent(r.ruleId)}`} className="cell-main">
      <span className={`badge ${r.severity}`}>{r.severity}</span> {r.title}
    </Link>
  )),
  column("count", "Findings", (r) => formatCount(r.count), { className: "num phone-first" }),
  column("rows", "Workspace rows", (r) => formatCount(r.rows), { className: "num phone-first" }),
  // Where the rule's value is a size (an empty cell otherwise).
  column("bytes", "Size", (r) => (r.bytes === null ? "" : <Bytes value={r.bytes} />), { className: "num" }),
];

/**
 * The fleet's findings one row per rule, the critical first: what to read before the rows themselves, each
 * opening its rule's rows (the CSV keeps every finding).
 */
export function FindingsByRule({ counts, rules }: { counts: FindingCounts; rules: Rule[] }) {
  const titles = new Map(rules.map((r) => [r.id, r.title]));
  const rows = counts.byRule
    .map((r) => ({ ...r, title: titles.get(r.ruleId) ?? r.ruleId }))
    // stable: within a severity, the catalog's order
    .sort((a, b) => SEVERITIES.indexOf(a.severity) - SEVERITIES.indexOf(b.severity));
  if (rows.length === 0) return null;
  return (
    <DataTable
      data={rows}
      columns={columns}
      rowId={(r) => r.ruleId}
      testId="findings-by-rule"
      // Findings, rows and size under the rule's name on a phone, side by side
      stacked={3}
      wrapStyle={{ marginBottom: 12 }}
    />
  );
}
