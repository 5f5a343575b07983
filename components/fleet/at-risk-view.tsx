"use client";

import { useInfiniteQuery } from "@tanstack/react-query";
import type { ColumnDef } from "@tanstack/react-table";
import Link from "next/link";
import { useSearchParams } from "next/navigation";
import type { AtRiskVolume } from "@/lib/db/queries/volumes-at-risk";
import { formatCount, formatCountOf, formatPercent } from "@/lib/format/numbers";
import { dfSummary } from "@/lib/format/volume";
import { fullInText } from "@/lib/format/full-in";
import { atRiskOptions } from "@/lib/query/fleet";
import { exportPaths } from "@/lib/validations/export";
import { AT_RISK_DAYS, parseAtRiskSearchParams } from "@/lib/validations/volumes";
import { Bytes } from "@/components/ui/bytes";
import { column, DataTable } from "@/components/ui/data-table";
import { DataTableMore } from "@/components/ui/data-table-pager";
import { ErrorPanel } from "@/components/ui/error-panel";
import { ExportLink } from "@/components/ui/export-link";
import { PageHeader } from "@/components/ui/page-header";
import { Panel } from "@/components/ui/panel";
import { Select } from "@/components/ui/select";
import { Skeleton } from "@/components/ui/states";
import { useSetSearchParams } from "@/components/ui/use-set-search-params";
import { WhyItFills } from "./why-it-fills";

const columns: ColumnDef<AtRiskVolume>[] = [
  column("workspace", "Workspace", (v) => (
    <Link href={`/workspaces/${encodeURIComponent(v.workspace.id)}`} className="cell-main">
      {v.workspace.owner}/{v.workspace.name}
    </Link>
  )),
  column("full", "Full in", (v) => <FullIn v={v} />, { className: "num phone-first" }),
  column("avail", "Avail", (v) => <Bytes value={v.volume.availBytes} />, { className: "num phone-first" }),
  column("use", "Use%", (v) => <span title={dfSummary(v.volume)}>{formatPercent(v.volume.usePercent / 100)}</span>, {
    className: "num phone-first",
  }),
  column("growth", "Growth", (v) => <Bytes value={v.growthBytesPerDay} perDay />, { className: "num" }),
  column("why", "Why it fills", (v) => <WhyItFills v={v} />, { className: "phone-wide" }),
];

function FullIn({ v }: { v: AtRiskVolume }) {
  const text = fullInText(v.volume, v.daysUntilFull === 0 ? null : v.daysUntilFull);
  const cls = text === "full" || text === "no inodes" ? "badge critical" : "badge warning";
  return (
    <span className={cls} title={v.forecastFullAt ?? undefined}>
      {text}
    </span>
  );
}

/** /volumes: every volume full or filling within N days, with the count, paged by key, and why each fills. */
export function AtRiskView() {
  const { days } = parseAtRiskSearchParams(useSearchParams());
  const setSearchParams = useSetSearchParams();
  const query = useInfiniteQuery(atRiskOptions(days));
  if (query.isPending) return <Skeleton height={400} />;
  if (query.isError && !query.data) return <ErrorPanel error={query.error} onRetry={() => void query.refetch()} />;
  const first = query.data.pages[0];
  const rows = query.data.pages.flatMap((p) => p.volumes);
  const choices = [...new Set([...AT_RISK_DAYS, first.days])].sort((a, b) => a - b);
  return (
    <div className="stack">
      <PageHeader
        title="Volumes at risk"
        sub={
          <span data-testid="at-risk-count">
            {formatCountOf(first.total, "volume")} full or filling within {formatCountOf(first.days, "day")}:{" "}
            {formatCount(first.full)} full ({formatCount(first.outOfSpace)} out of space,{" "}
            {formatCount(first.outOfInodes)} out of inodes), {formatCount(first.total - first.full)} filling
          </span>
        }
        actions={
          <Select
            label="Filling within"
            value={String(first.days)}
            options={choices.map((d) => ({ value: String(d), label: formatCountOf(d, "day") }))}
            onValue={(v) => setSearchParams({ days: v }, "replace")}
          />
        }
      />
      <Panel
        title="Fewest days first, then least free space"
        actions={
          <ExportLink
            path={exportPaths.volumes()}
            params={{ days: first.days }}
            title="Download every volume of this table as CSV, with why each fills"
          />
        }
      >
        <DataTable
          data={rows}
          columns={columns}
          rowId={(v) => v.workspace.id}
          testId="at-risk"
          // Full in, Avail and Use% under the name, then Growth; why it fills on lines of its own
          stacked={3}
          empty="No volume is full or filling within these days."
        >
          <p className="muted small">
            {formatCount(rows.length)} of {formatCount(first.total)} shown.{" "}
            <DataTableMore query={query}>Show more</DataTableMore>
          </p>
        </DataTable>
      </Panel>
    </div>
  );
}
