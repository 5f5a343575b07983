"use client";

import { useQuery } from "@tanstack/react-query";
import type { ColumnDef } from "@tanstack/react-table";
import Link from "next/link";
import { agentLabel } from "@/components/agents/agent-label";
import { Bytes } from "@/components/ui/bytes";
import { column, DataTable } from "@/components/ui/data-table";
import { ExportLink } from "@/components/ui/export-link";
import { PageHeader } from "@/components/ui/page-header";
import { Panel } from "@/components/ui/panel";
import { QueryView } from "@/components/ui/states";
import type { AtRiskWorkspace, RestartRisk } from "@/lib/db/queries/restart-risk";
import { restartRiskOptions } from "@/lib/query/restart";
import { exportPaths } from "@/lib/validations/export";

const columns: ColumnDef<AtRiskWorkspace>[] = [
  column("workspace", "Workspace", (w) => (
    <>
      <Link href={`/workspaces/${encodeURIComponent(w.id)}#restart`}>{w.name}</Link>
      <div className="muted small">{w.owner}</div>
    </>
  )),
  column("cause", "What is lost", (w) =>
    w.homeLost ? (
      <>
        <span className="badge critical">whole home</span>{" "}
        <span className="muted small">
          {w.home}: {w.homeReason}
        </span>
      </>
    ) : (
      <div className="small">
        {w.lost.map((l) => (
          <div key={l.key}>
            <span className={l.sessions ? "badge critical" : "badge warning"}>{agentLabel(l.agent)}</span>{" "}
            <span className="mono">{l.key}</span> <span className="muted">on {l.where}</span>
          </div>
        ))}
      </div>
    ),
  ),
  column("sessions", "Sessions lost", (w) => <Bytes value={w.lostSessionBytes} />, { className: "num" }),
  column("bytes", "Agent data lost", (w) => <Bytes value={w.lostBytes} />, { className: "num" }),
];

function Templates({ data }: { data: RestartRisk }) {
  return (
    <div className="stack">
      {data.templates.map((t) => {
        const home = t.atRisk.filter((w) => w.homeLost).length;
        return (
          <Panel
            key={t.template ?? ""}
            title={`${t.template ?? "No template"}: ${t.atRisk.length} of ${t.workspaces} workspaces`}
            actions={
              <ExportLink
                path={exportPaths.restart()}
                params={t.template === null ? undefined : { template: t.template }}
              />
            }
          >
            <p className="small">
              {home === t.atRisk.length
                ? "Mount a persistent volume at the home in this template: it fixes all of them."
                : home
                  ? `${home} lose their whole home (mount a volume at the home); the others keep an agent folder off the home's volume.`
                  : "An agent folder is linked or mounted off the home's volume: remove the link or the mount in the template or its start script."}
            </p>
            <DataTable data={t.atRisk} columns={columns} rowId={(w) => w.id} testId="restart-workspaces" stacked={2} />
          </Panel>
        );
      })}
    </div>
  );
}

/** The fleet's workspaces that lose agent data at a restart, grouped by template (the cause is nearly always it). */
export function LostAtRestartView() {
  const query = useQuery(restartRiskOptions());
  return (
    <div className="stack">
      <PageHeader
        title="Lost at restart"
        sub={
          query.data
            ? `${query.data.atRisk} of ${query.data.reporting} workspaces lose agent data when they stop.`
            : undefined
        }
        actions={<ExportLink path={exportPaths.restart()} title="Download every folder lost at a restart as CSV" />}
      />
      <QueryView
        query={query}
        isEmpty={(d) => d.templates.length === 0}
        empty="No workspace loses agent data at a restart (of those whose reporter says where their folders live)."
      >
        {(data) => <Templates data={data} />}
      </QueryView>
    </div>
  );
}
