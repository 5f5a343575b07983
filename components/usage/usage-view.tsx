"use client";

import { useQuery } from "@tanstack/react-query";
import { useSearchParams } from "next/navigation";
import { agentLabel } from "@/components/agents/agent-label";
import { useIsAdmin } from "@/components/auth/caller-context";
import { StackedAreaChart } from "@/components/charts/lazy";
import { SERIES_COLORS } from "@/components/charts/palette";
import { Bytes } from "@/components/ui/bytes";
import { ExportLink } from "@/components/ui/export-link";
import { Field } from "@/components/ui/field";
import { PageHeader } from "@/components/ui/page-header";
import { Panel, Stat } from "@/components/ui/panel";
import { Select } from "@/components/ui/select";
import { QueryView } from "@/components/ui/states";
import { useSetSearchParams } from "@/components/ui/use-set-search-params";
import type { UsageReport } from "@/lib/db/queries/usage-report";
import { formatCount } from "@/lib/format/numbers";
import { usageReportOptions } from "@/lib/query/usage";
import { exportPaths } from "@/lib/validations/export";
import {
  parseUsageState,
  USAGE_DIMENSION_LABELS,
  USAGE_DIMENSIONS,
  type UsageParams,
  usageSearch,
} from "@/lib/validations/usage";
import { TeamUploadPanel } from "./team-upload";
import { UsageTable } from "./usage-table";

const today = () => new Date().toISOString().slice(0, 10);

/** Dimension, month, or a range of days: kept in the URL, so a view is a link. */
function Pickers({ p }: { p: UsageParams }) {
  const setParams = useSetSearchParams();
  return (
    <div className="row" data-testid="usage-pickers">
      <Select
        label="By"
        value={p.dimension}
        options={USAGE_DIMENSIONS.map((d) => ({ value: d, label: USAGE_DIMENSION_LABELS[d] }))}
        onValue={(dimension) => setParams({ dimension })}
      />
      <Field label="Month">
        <input
          type="month"
          value={p.month ?? ""}
          max={today().slice(0, 7)}
          onChange={(e) => e.target.value && setParams({ month: e.target.value, from: null, to: null })}
        />
      </Field>
      <Field label="From">
        <input
          type="date"
          value={p.from}
          max={today()}
          onChange={(e) => e.target.value && setParams({ month: null, from: e.target.value, to: p.to })}
        />
      </Field>
      <Field label="To">
        <input
          type="date"
          value={p.to}
          max={today()}
          onChange={(e) => e.target.value && setParams({ month: null, from: p.from, to: e.target.value })}
        />
      </Field>
    </div>
  );
}

function Report({ data }: { data: UsageReport }) {
  const label = (key: string) => {
    const row = data.rows.find((r) => r.key === key);
    return data.dimension === "agent" && key ? agentLabel(key) : (row?.label ?? key);
  };
  const series = data.chart.keys.map((key, i) => ({
    key: `k${i}`,
    label: label(key),
    color: SERIES_COLORS[i % SERIES_COLORS.length],
  }));
  const rows = data.chart.points.map((pt) => ({
    day: pt.day,
    ...Object.fromEntries(data.chart.keys.map((key, i) => [`k${i}`, pt.values[key] ?? 0])),
  }));
  const dims = USAGE_DIMENSION_LABELS[data.dimension].toLowerCase();
  return (
    <div className="stack">
      <div className="grid-4" data-testid="usage-stats">
        <Stat label="Average" sub={`over ${formatCount(data.days)} days`}>
          <Bytes value={data.total.avgBytes} />
        </Stat>
        <Stat label="Peak" sub="the largest day">
          <Bytes value={data.total.peakBytes} />
        </Stat>
        <Stat label="Byte-days" sub="the area under the curve">
          <Bytes value={data.total.byteDays} />
          -days
        </Stat>
        <Stat label="Freed by cleanups" sub={`${formatCount(data.total.workspaces)} workspaces counted`}>
          <Bytes value={data.total.freedBytes} />
        </Stat>
      </div>
      <Panel title={`Top ${series.length} by byte-days, each day`}>
        <StackedAreaChart
          rows={rows}
          series={series}
          label={`Storage per ${dims}, the largest ${series.length}`}
          overlaid={data.dimension === "group"}
        />
      </Panel>
      <Panel
        title={`By ${dims}`}
        actions={
          <ExportLink
            path={exportPaths.usageBy()}
            params={Object.fromEntries(new URLSearchParams(usageSearch(data)))}
          />
        }
      >
        <UsageTable data={data} />
        {data.dimension === "group" ? (
          <p className="muted small">
            A workspace counts in each group its owner is in, so the groups add up to more than the total, which counts
            each workspace once.
          </p>
        ) : null}
      </Panel>
    </div>
  );
}

/** Storage per organization, group, owner, template or agent over a month or range: the showback table. */
export function UsageView() {
  const p = parseUsageState(useSearchParams(), today());
  const query = useQuery(usageReportOptions(p));
  const isAdmin = useIsAdmin();
  return (
    <div className="stack">
      <PageHeader
        title="Usage"
        sub={`${p.month ? `The month ${p.month}` : "The range"}: ${p.from} to ${p.to}, from the daily roll-ups.`}
        actionsAtEnd
        actions={
          <ExportLink
            path={exportPaths.usage()}
            params={{ range: "custom", from: p.from, to: p.to }}
            title="Download the raw daily usage, per workspace and root, as CSV"
            label="Raw CSV"
          />
        }
      />
      <Pickers p={p} />
      <QueryView query={query} isEmpty={(d) => d.rows.length === 0} empty="No usage in this range.">
        {(data) => <Report data={data} />}
      </QueryView>
      {isAdmin && p.dimension === "group" ? <TeamUploadPanel /> : null}
    </div>
  );
}
