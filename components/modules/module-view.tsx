"use client";

import { useQuery } from "@tanstack/react-query";
import type { ColumnDef } from "@tanstack/react-table";
import Link from "next/link";
import { useSearchParams } from "next/navigation";
import type { ModuleDetail } from "@/lib/db/queries/modules";
import { formatCount, formatPercent } from "@/lib/format/numbers";
import { moduleDetailOptions } from "@/lib/query/modules";
import { exportPaths } from "@/lib/validations/export";
import { parseRange, rangeParams } from "@/lib/validations/range";
import { StackedAreaChart } from "@/components/charts/lazy";
import { agentColor } from "@/components/charts/palette";
import { agentLabel } from "@/components/agents/agent-label";
import { Bytes } from "@/components/ui/bytes";
import { column, DataTable } from "@/components/ui/data-table";
import { ExportLink } from "@/components/ui/export-link";
import { PageHeader } from "@/components/ui/page-header";
import { Panel, Stat } from "@/components/ui/panel";
import { RangeChangeStat } from "@/components/ui/range-change-stat";
import { RangePicker } from "@/components/ui/range-picker";
import { PageLoading, QueryView } from "@/components/ui/states";

type Held = ModuleDetail["workspaces"][number];

function WorkspacesTable({ data }: { data: ModuleDetail }) {
  const columns: ColumnDef<Held>[] = [
    column("workspace", "Workspace", (w) => (
      <Link href={`/workspaces/${encodeURIComponent(w.id)}`}>
        {w.owner}/{w.name}
      </Link>
    )),
    column("share", "Share", (w) => formatPercent(data.total.bytes ? w.bytes / data.total.bytes : null), {
      className: "num",
      cellClassName: "muted",
    }),
    column("size", "Size", (w) => <Bytes value={w.bytes} />, { className: "num" }),
  ];
  return (
    <DataTable data={data.workspaces} columns={columns} rowId={(w) => w.id} testId="module-workspaces" stacked={2} />
  );
}

function Detail({ data }: { data: ModuleDetail }) {
  const range = rangeParams({ range: data.range.key, from: data.range.from, to: data.range.to });
  return (
    <div className="stack">
      <div className="grid-4" data-testid="module-stats">
        <Stat label="Storage now" sub={`in ~/.coder-modules/${data.module}`} testId="module-total">
          <Bytes value={data.total.bytes} />
        </Stat>
        <Stat label="Workspaces" sub="holding it now">
          {formatCount(data.total.workspaces)}
        </Stat>
        <RangeChangeStat
          label={`Change over ${data.range.key === "custom" ? "the range" : data.range.key.replace("d", " days")}`}
          series={data.series}
          testId="module-range-change"
        />
        <Stat label="Agent" href={`/agents/${encodeURIComponent(data.agent)}`} sub="the module's agent">
          {agentLabel(data.agent)}
        </Stat>
      </div>
      <Panel
        title={`${data.module} across the fleet`}
        actions={<ExportLink path={exportPaths.module(data.module)} params={range} />}
      >
        <StackedAreaChart
          rows={data.series}
          series={[{ key: "bytes", label: data.module, color: agentColor(data.agent) }]}
          label={`${data.module} total over time`}
        />
      </Panel>
      <Panel title="Workspaces holding it, largest first">
        <WorkspacesTable data={data} />
      </Panel>
    </div>
  );
}

/** One module's folder (~/.coder-modules/<namespace>/<module>) across the fleet. */
export function ModuleView({ moduleKey }: { moduleKey: string }) {
  const range = parseRange(useSearchParams());
  const query = useQuery(moduleDetailOptions(moduleKey, range));
  return (
    <div className="stack">
      <PageHeader
        trail={
          <>
            <Link href="/">Overview</Link> / Modules /
          </>
        }
        title={moduleKey}
        actionsAtEnd
        actions={<RangePicker />}
      />
      {query.isPending ? <PageLoading /> : <QueryView query={query}>{(data) => <Detail data={data} />}</QueryView>}
    </div>
  );
}
