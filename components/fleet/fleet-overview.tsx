"use client";

import { useQuery } from "@tanstack/react-query";
import { useSearchParams } from "next/navigation";
import { fleetOverviewOptions } from "@/lib/query/fleet";
import { exportPaths } from "@/lib/validations/export";
import { parseRange, rangeParams } from "@/lib/validations/range";
import { ExportLink } from "@/components/ui/export-link";
import { Panel } from "@/components/ui/panel";
import { RangePicker } from "@/components/ui/range-picker";
import { PageLoading, QueryView } from "@/components/ui/states";
import { RelativeTime } from "@/components/ui/time";
import { FleetChart } from "./fleet-chart";
import {
  FastestGrowing,
  FindingsSummaryPanel,
  SilentWorkspaces,
  TopAgents,
  TopWorkspaces,
  VolumesAtRisk,
} from "./fleet-lists";
import { CoderCoverage } from "./coder-coverage";
import { NotReporting } from "./not-reporting";
import { FleetStats } from "./fleet-stats";
import { FleetHomePanel } from "./fleet-home";
import { PageHeader } from "@/components/ui/page-header";

export function FleetOverviewView() {
  const range = parseRange(useSearchParams());
  const query = useQuery(fleetOverviewOptions(range));
  return (
    <div className="stack">
      <PageHeader
        title="Fleet overview"
        sub={
          <>
            Storage used by AI agents across every workspace
            {query.data?.figuresAsOf ? (
              <span title="Every report received up to this time is in the figures below">
                {" "}
                · figures as of <RelativeTime value={query.data.figuresAsOf} />
              </span>
            ) : null}
          </>
        }
        actionsAtEnd
        actions={
          <>
            <ExportLink
              path={exportPaths.usage()}
              params={rangeParams(range)}
              label="Usage CSV"
              title="Download every workspace's storage by root and day over this range as CSV"
            />
            <RangePicker />
          </>
        }
      />
      {query.isPending ? <PageLoading /> : null}
      {!query.isPending ? (
        <QueryView
          query={query}
          isEmpty={(d) => d.total.reportingWorkspaces === 0}
          empty="No workspace has sent a report yet. Add the reporter to your Coder templates to start collecting storage data."
        >
          {(data) => (
            <div className="stack">
              <FleetStats data={data} />
              <CoderCoverage coverage={data.coverage} sync={data.coderSync} />
              <NotReporting list={data.notReporting} />
              <div className="grid-3">
                <VolumesAtRisk
                  rows={data.volumesAtRisk}
                  total={data.volumesAtRiskTotal}
                  fillingDays={data.fillingDays}
                />
                <SilentWorkspaces silent={data.silent} synced={data.coderSync?.succeededAt != null} />
                <FindingsSummaryPanel findings={data.findings} />
              </div>
              <FleetHomePanel home={data.home} />
              <Panel
                title="Fleet storage by agent"
                actions={<ExportLink path={exportPaths.fleet("series")} params={rangeParams(range)} />}
              >
                <FleetChart series={data.series} />
              </Panel>
              <div className="grid-3">
                <TopWorkspaces rows={data.topWorkspaces} />
                <TopAgents rows={data.topAgents} />
                <FastestGrowing rows={data.fastestGrowingRoots} />
              </div>
            </div>
          )}
        </QueryView>
      ) : null}
      {/* Before the first report, why workspaces do not report is all there is to show. */}
      {query.data?.total.reportingWorkspaces === 0 ? <NotReporting list={query.data.notReporting} /> : null}
    </div>
  );
}
