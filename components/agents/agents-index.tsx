"use client";

import type { ColumnDef } from "@tanstack/react-table";
import Link from "next/link";
import type { TopAgent } from "@/lib/db/queries/fleet-lists";
import { formatCount, formatPercent } from "@/lib/format/numbers";
import { exportPaths } from "@/lib/validations/export";
import { agentColor } from "@/components/charts/palette";
import { Bytes } from "@/components/ui/bytes";
import { column, DataTable } from "@/components/ui/data-table";
import { ExportLink } from "@/components/ui/export-link";
import { PageHeader } from "@/components/ui/page-header";
import { Panel } from "@/components/ui/panel";
import { agentLabel, hasAgentPage } from "./agent-label";

function agentColumns(total: number): ColumnDef<TopAgent>[] {
  return [
    column("agent", "Agent", (a) => {
      const label = (
        <>
          <span className="swatch" style={{ background: agentColor(a.agent) }} />
          {agentLabel(a.agent)}
        </>
      );
      return hasAgentPage(a.agent) ? (
        <Link className="cell-main" href={`/agents/${encodeURIComponent(a.agent)}`}>
          {label}
        </Link>
      ) : (
        <span className="cell-main">{label}</span>
      );
    }),
    column("bytes", "Storage", (a) => <Bytes value={a.bytes} />, { className: "num phone-first" }),
    column("share", "Share", (a) => formatPercent(total > 0 ? a.bytes / total : null), { className: "num" }),
    column("workspaces", "Workspaces", (a) => formatCount(a.workspaces), { className: "num" }),
    column("roots", "Roots", (a) => formatCount(a.roots), { className: "num phone-hidden" }),
  ];
}

/** /agents: every agent (and the non-agent series: modules, package caches, ...) with its storage, largest first. */
export function AgentsIndex({ agents }: { agents: TopAgent[] }) {
  const total = agents.reduce((s, a) => s + a.bytes, 0);
  return (
    <div className="stack">
      <PageHeader
        title="Agents"
        sub={
          <>
            What each agent&apos;s folders hold across the fleet, from every workspace&apos;s newest report:{" "}
            <Bytes value={total} /> in all, the overview&apos;s Total storage.
          </>
        }
      />
      <Panel title="Largest first" actions={<ExportLink path={exportPaths.agents()} />}>
        <DataTable
          data={agents}
          columns={agentColumns(total)}
          rowId={(a) => a.agent}
          testId="agents-index"
          // Storage, Share and Workspaces under the agent's name on a phone (its Roots left out there)
          stacked={3}
          empty="No workspace has reported yet."
        />
      </Panel>
    </div>
  );
}
