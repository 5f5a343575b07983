"use client";

import { useQuery } from "@tanstack/react-query";
import type { ColumnDef } from "@tanstack/react-table";
import Link from "next/link";
import { useSearchParams } from "next/navigation";
import { exportPaths } from "@/lib/validations/export";
import { parseRange, rangeParams } from "@/lib/validations/range";
import type { AgentDetail } from "@/lib/db/queries/agents";
import { formatBytes } from "@/lib/format/bytes";
import { formatCount, formatCountOf, formatPercent } from "@/lib/format/numbers";
import { agentDetailOptions } from "@/lib/query/agents";
import { HistogramChart } from "@/components/charts/lazy";
import { agentColor } from "@/components/charts/palette";
import { bucketLabel } from "@/components/charts/shape";
import { StackedAreaChart } from "@/components/charts/lazy";
import { Bytes } from "@/components/ui/bytes";
import { ExportLink } from "@/components/ui/export-link";
import { Panel, Stat } from "@/components/ui/panel";
import { column, DataTable } from "@/components/ui/data-table";
import { RangeChangeStat } from "@/components/ui/range-change-stat";
import { RangePicker } from "@/components/ui/range-picker";
import { EmptyState, PageLoading, QueryView } from "@/components/ui/states";
import { agentLabel } from "./agent-label";
import { AgentReclaimablePanel } from "@/components/cleanup/agent-reclaimable";
import { AgentCleanupLinks } from "@/components/cleanup/cleanup-link";
import { AgentRetentionPanel } from "./agent-retention";
import { PageHeader } from "@/components/ui/page-header";

/** What each kind of root is, as a reader knows it (also read after "all": "73 roots, all the agent's own folders"). */
const KIND_LABELS: Record<string, string> = {
  tool: "the agent's own folders",
  module: "module folders (~/.coder-modules)",
  legacy: "legacy module folders",
  leftover: "AgentAPI leftovers",
  "script-data": "script data",
  custom: "roots added by an admin",
  trash: "the cleanup trash",
};
const kindLabel = (kind: string) => KIND_LABELS[kind] ?? kind;

/** Where the agent's storage lies, by kind of root, largest first. */
function KindsTable({ data }: { data: AgentDetail }) {
  const columns: ColumnDef<AgentDetail["byKind"][number]>[] = [
    column("kind", "Kind of root", (k) => kindLabel(k.kind).replace(/^./, (c) => c.toUpperCase())),
    column("roots", "Roots", (k) => formatCount(k.roots), { className: "num" }),
    column("share", "Share", (k) => formatPercent(data.total.bytes ? k.bytes / data.total.bytes : null), {
      className: "num",
      cellClassName: "muted",
    }),
    column("size", "Size", (k) => <Bytes value={k.bytes} />, { className: "num" }),
  ];
  return (
    <DataTable
      data={data.byKind}
      columns={columns}
      rowId={(k) => k.kind}
      testId="agent-kinds"
      stacked={3}
      wrap={false}
    />
  );
}

function Detail({ data }: { data: AgentDetail }) {
  const range = rangeParams({ range: data.range.key, from: data.range.from, to: data.range.to });
  const label = agentLabel(data.agent);
  const wsLink = `/workspaces?agent=${encodeURIComponent(data.agent)}`;
  const rows = data.series.map((p) => ({ day: p.day, bytes: p.bytes }));
  const histogram = data.distribution.map((b) => ({
    label: bucketLabel(b.minBytes, b.maxBytes, formatBytes),
    count: b.count,
  }));
  return (
    <div className="stack">
      <div className="grid-4" data-testid="agent-stats">
        <Stat
          label={`${label} storage`}
          href={wsLink}
          sub={
            data.byKind.length === 1
              ? `${formatCountOf(data.total.roots, "root")}, all ${kindLabel(data.byKind[0].kind)}`
              : formatCountOf(data.total.roots, "root")
          }
        >
          <Bytes value={data.total.bytes} />
        </Stat>
        <Stat label="Workspaces" href={wsLink} sub="with data of this agent">
          {formatCount(data.total.workspaces)}
        </Stat>
        <RangeChangeStat
          label={`Change over ${data.range.key === "custom" ? "the range" : data.range.key.replace("d", " days")}`}
          series={rows}
          testId="agent-range-change"
        />
        <Stat
          label="Median growth"
          href={`${wsLink}&sort=change7d`}
          sub={`per workspace since ${data.growth.sinceDay} (${data.growth.workspacesMeasured} measured)`}
        >
          <Bytes value={data.growth.medianBytesPerDay} perDay />
        </Stat>
        <Stat
          label="Older than 30 days"
          href="#largest"
          sub={
            // Ages are counted per file: of the storage above, folders' own blocks (and roots sent without ages)
            // have none, so the share is of the files' bytes, and says so when that is not the whole.
            <>
              <Bytes value={data.oldData.bytes} /> of the <Bytes value={data.oldData.agedBytes} /> in files
              {data.total.bytes - data.oldData.agedBytes > 0 ? (
                <>
                  ; the other <Bytes value={data.total.bytes - data.oldData.agedBytes} /> of the total is folders, which
                  have no age
                </>
              ) : null}
              . Not what a cleanup frees (that is Reclaimable, below): this counts every file past 30 days, one by one,
              whether or not a recipe removes it, while a recipe takes a whole session only when all of it is past its
              own age, and trashed sessions free their space only once the trash expires.
            </>
          }
        >
          {formatPercent(data.oldData.share)}
        </Stat>
      </div>
      <AgentReclaimablePanel agent={data.agent} />
      <AgentRetentionPanel agent={data.agent} shares={data.retention} />
      <Panel
        title={`${label} across the fleet`}
        actions={<ExportLink path={exportPaths.agent(data.agent, "series")} params={range} />}
      >
        <StackedAreaChart
          rows={rows}
          series={[{ key: "bytes", label, color: agentColor(data.agent) }]}
          label={`${label} total over time`}
        />
      </Panel>
      <div className="grid-2">
        <Panel
          title="Per-workspace size distribution"
          actions={<ExportLink path={exportPaths.agent(data.agent, "distribution")} />}
        >
          <HistogramChart rows={histogram} label={`Workspaces by ${label} size`} />
        </Panel>
        <Panel
          title="Largest workspaces"
          id="largest"
          actions={
            <>
              <ExportLink
                path={exportPaths.agent(data.agent)}
                title={`Download every workspace with ${label} data, largest first, as CSV`}
              />
              <Link href={wsLink}>All →</Link>
            </>
          }
        >
          <ul className="list" data-testid="agent-largest">
            {data.largestWorkspaces.map((w) => (
              <li key={w.id}>
                <Link className="grow" href={`/workspaces/${encodeURIComponent(w.id)}`}>
                  {w.owner}/{w.name}
                </Link>
                <span className="muted small">{formatCountOf(w.roots, "root")}</span>
                <span className="num">
                  <Bytes value={w.bytes} />
                </span>
              </li>
            ))}
          </ul>
        </Panel>
      </div>
      {/* One kind (most agents) is said under the headline; several get a table of their own. */}
      {data.byKind.length > 1 ? (
        <Panel title="By kind of root" actions={<ExportLink path={exportPaths.agent(data.agent, "kinds")} />}>
          <KindsTable data={data} />
        </Panel>
      ) : null}
    </div>
  );
}

export function AgentView({ agent }: { agent: string }) {
  const range = parseRange(useSearchParams());
  const query = useQuery(agentDetailOptions(agent, range));
  return (
    <div className="stack">
      <PageHeader
        trail={
          <>
            <Link href="/">Overview</Link> / Agents /
          </>
        }
        title={agentLabel(agent)}
        actionsAtEnd
        actions={
          <>
            <ExportLink
              path={exportPaths.usage()}
              params={{ ...rangeParams(range), agent }}
              label="Usage CSV"
              title={`Download every ${agentLabel(agent)} root's storage by day over this range as CSV`}
            />
            <RangePicker />
          </>
        }
      >
        <AgentCleanupLinks agent={agent} />
      </PageHeader>
      {query.isPending ? (
        <PageLoading />
      ) : (
        <QueryView query={query}>
          {(data) =>
            data.hasData ? (
              <Detail data={data} />
            ) : (
              <EmptyState>No workspace has reported {agentLabel(agent)} data yet.</EmptyState>
            )
          }
        </QueryView>
      )}
    </div>
  );
}
