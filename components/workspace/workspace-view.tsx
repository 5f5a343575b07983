"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useSearchParams } from "next/navigation";
import type { WorkspaceDetail } from "@/lib/db/queries/workspace-detail";
import { exportPaths, type WorkspaceTable } from "@/lib/validations/export";
import { parseRange, rangeParams, type RangeState } from "@/lib/validations/range";
import { workspaceDetailOptions } from "@/lib/query/workspaces";
import { rootColors } from "@/components/charts/palette";
import { VolumeChart } from "@/components/charts/lazy";
import { EmptyTrash } from "@/components/cleanup/empty-trash";
import { FreeSpaceLink } from "@/components/cleanup/free-space-link";
import { CoderStatus } from "@/components/coder/coder-status";
import { FindingList } from "@/components/findings/finding-item";
import { ExportLink } from "@/components/ui/export-link";
import { Panel } from "@/components/ui/panel";
import { RangePicker } from "@/components/ui/range-picker";
import { PageLoading, QueryView } from "@/components/ui/states";
import { RelativeTime } from "@/components/ui/time";
import { AgeChart } from "./age-chart";
import { AgentRetentionTable } from "./agent-retention";
import { CategoryBreakdown, RootsTable } from "./breakdown";
import { LargestEntries, LargestSessions } from "./largest-entries";
import { NoticesPanel } from "./notices-panel";
import { ReportHistory } from "./report-history";
import { RestartPanel } from "./restart-panel";
import { volumeRows } from "@/lib/shaping/workspace-tables";
import { HomePanel } from "./home-panel";
import { VolumeTable } from "./volume-table";
import { UsageChart } from "./usage-chart";
import { WorkspaceStats } from "./workspace-stats";
import { PageHeader } from "@/components/ui/page-header";

function Detail({ data, range }: { data: WorkspaceDetail; range: RangeState }) {
  const colors = rootColors(data.roots);
  const id = data.workspace.id;
  const table = (name: WorkspaceTable) => (
    <ExportLink path={exportPaths.workspace(id, name)} params={rangeParams(range)} />
  );
  const neverReported = data.reports.length === 0;
  return (
    <div className="stack">
      <WorkspaceStats data={data} />
      {neverReported ? (
        <Panel>
          <p className="empty">
            This workspace enrolled but has not sent a report yet. <Link href="/connect">Check its reporter setup</Link>
            .
          </p>
        </Panel>
      ) : null}
      <Panel
        title="Usage over time by root"
        id="usage"
        actions={
          <ExportLink
            path={exportPaths.usage()}
            params={{ ...rangeParams(range), workspace: id }}
            title="Download each root's size per day over this range as CSV"
          />
        }
      >
        <UsageChart usage={data.usage} />
      </Panel>
      <div className="grid-2">
        <Panel title="Volume used and forecast" id="volume" actions={table("volume")}>
          {data.workspace.volume ? <VolumeTable volume={data.workspace.volume} /> : null}
          {data.volume.history.some((h) => h.usedBytes !== null) ? (
            <VolumeChart rows={volumeRows(data.volume, data.workspace.volume)} />
          ) : (
            <p className="muted small">The reporter sends no volume size for this workspace.</p>
          )}
        </Panel>
        <Panel title="By category (latest report)" actions={table("categories")}>
          <CategoryBreakdown roots={data.roots} />
        </Panel>
      </div>
      <HomePanel
        home={data.workspace.home}
        volume={data.workspace.volume}
        exports={
          <>
            {table("home")}
            <ExportLink
              path={exportPaths.workspace(id, "home-folders")}
              label="Folders CSV"
              title="Download the largest folders as CSV"
            />
          </>
        }
      />
      <Panel title="By root (latest report)" actions={table("roots")}>
        <RootsTable roots={data.roots} colors={colors} workspaceId={data.workspace.id} />
      </Panel>
      <div className="grid-2">
        <Panel title="Largest sessions" actions={table("sessions")}>
          <LargestSessions sessions={data.largestSessions} />
        </Panel>
        <Panel title="Largest other files and folders" actions={table("entries")}>
          <LargestEntries roots={data.roots} />
        </Panel>
      </div>
      <Panel title="Age of data per root" actions={table("ages")}>
        <AgeChart roots={data.roots} />
        <AgentRetentionTable roots={data.roots} settings={data.workspace.agentRetention} />
      </Panel>
      <RestartPanel
        workspaceId={id}
        persistence={data.workspace.persistence}
        roots={data.roots}
        freeBytes={data.workspace.volume?.availBytes ?? null}
      />
      <Panel
        title={`Findings (${data.findings.reduce((n, f) => n + f.count, 0)})`}
        id="findings"
        actions={
          <>
            <ExportLink path={exportPaths.findings()} params={{ workspace: id }} />
            <Link href={`/findings?workspace=${encodeURIComponent(id)}`}>Open in findings →</Link>
          </>
        }
      >
        {data.findings.length ? (
          <FindingList findings={data.findings} showWorkspace={false} />
        ) : (
          <p className="muted small">Nothing needs attention.</p>
        )}
      </Panel>
      <NoticesPanel workspaceId={id} />
      <EmptyTrash workspaceId={id} trash={data.roots.find((r) => r.kind === "trash") ?? null} />
      <Panel
        title="Report history"
        actions={
          <>
            {table("reports")}
            <ExportLink
              path={exportPaths.usage()}
              params={{ ...rangeParams(range), workspace: id, granularity: "report" }}
              label="Every root of every report"
              title="Download the raw history (each report's roots) over this range as CSV"
            />
          </>
        }
      >
        <ReportHistory reports={data.reports} />
      </Panel>
    </div>
  );
}

export function WorkspaceView({ id }: { id: string }) {
  const range = parseRange(useSearchParams());
  const query = useQuery(workspaceDetailOptions(id, range));
  const w = query.data?.workspace;
  return (
    <div className="stack">
      <PageHeader
        trail={
          <>
            <Link href="/workspaces">Workspaces</Link> /
          </>
        }
        title={w ? `${w.owner}/${w.name}` : id}
        sub={
          w ? (
            <>
              {w.template ? (
                <>
                  Template <Link href={`/workspaces?template=${encodeURIComponent(w.template)}`}>{w.template}</Link>{" "}
                  ·{" "}
                </>
              ) : null}
              Last report {w.lastCollectedAt ? <RelativeTime value={w.lastCollectedAt} /> : "never"} · In Coder{" "}
              <CoderStatus coder={w.coder} />
              {w.coder.deletedAt ? (
                <span className="small muted ml-8" data-testid="deleted-note">
                  Deleted in Coder on {w.coder.deletedAt.slice(0, 10)}: out of the fleet&apos;s totals, its history is
                  kept until retention expires it.
                </span>
              ) : null}
              {w.silent ? <span className="badge warning ml-8">not reporting</span> : null}
              {w.volume?.full || w.volume?.inodesFull ? (
                <span className="badge critical ml-8" data-testid="volume-full-badge">
                  {w.volume.full
                    ? `volume full (${w.volume.usePercent}%)`
                    : `inodes exhausted (${w.volume.inodes?.usePercent}%)`}
                </span>
              ) : null}
              {(w.volume?.full || w.volume?.inodesFull) && !w.coder.deletedAt ? (
                <>
                  {" "}
                  <FreeSpaceLink workspaceId={w.id} primary />
                </>
              ) : null}
            </>
          ) : null
        }
        actionsAtEnd
        actions={<RangePicker />}
      />
      {query.isPending ? (
        <PageLoading />
      ) : (
        <QueryView query={query}>{(data) => <Detail data={data} range={range} />}</QueryView>
      )}
    </div>
  );
}
