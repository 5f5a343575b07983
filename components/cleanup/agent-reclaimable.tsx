"use client";

import { useQuery } from "@tanstack/react-query";
import { trashWaitText } from "@/lib/cleanup/freed";
import type { Catalog } from "@/lib/db/queries/cleanup-catalog";
import { catalogOptions } from "@/lib/query/cleanup";
import { exportPaths } from "@/lib/validations/export";
import { agentLabel } from "@/components/agents/agent-label";
import { useIsAdmin } from "@/components/auth/caller-context";
import { DataTable } from "@/components/ui/data-table";
import { ExportLink } from "@/components/ui/export-link";
import { Panel } from "@/components/ui/panel";
import { recipeColumns } from "./cleanup-columns";
import { FreedSplit, useLocalSort } from "./reclaimable";

/**
 * The agent page's reclaimable figure (the one the overview's top agents and the Cleanup page show) and the
 * agent's recipes that make it, largest first. Nothing for an agent no recipe cleans.
 */
export function AgentReclaimablePanel({ agent }: { agent: string }) {
  const { data } = useQuery(catalogOptions());
  const reclaimable = data?.agents.find((a) => a.agent === agent);
  if (!data || !reclaimable) return null;
  const label = agentLabel(agent);
  return (
    <Panel
      title="Reclaimable"
      id="reclaimable"
      actions={
        <ExportLink
          path={exportPaths.cleanupRecipes()}
          title="Download every recipe and what it frees, now and in 7 days, as CSV"
        />
      }
    >
      <p data-testid="agent-reclaimable-headline">
        <strong>
          <FreedSplit value={reclaimable} estimate={reclaimable.estimate} />
        </strong>
        : what {label}&apos;s recipes free across the fleet with their defaults, summed.{" "}
        <span className="muted small">Deleted units free their space now. {trashWaitText(reclaimable.laterDays)}</span>
      </p>
      <AgentRecipes recipes={data.recipes.filter((r) => r.agent === agent)} />
    </Panel>
  );
}

function AgentRecipes({ recipes }: { recipes: Catalog["recipes"] }) {
  const isAdmin = useIsAdmin();
  const { rows, columns, sorting } = useLocalSort(
    recipes,
    recipeColumns(isAdmin).filter((c) => c.id !== "agent" && c.id !== "unit"),
    {
      recipe: (r) => r.title,
      now: (r) => r.fleet.nowBytes,
      later: (r) => r.fleet.laterBytes,
      workspaces: (r) => r.fleet.workspaces,
      total: (r) => r.fleet.bytes,
    },
  );
  return (
    <DataTable
      data={rows}
      columns={columns}
      rowId={(r) => r.id}
      testId="agent-recipes"
      rowProps={(r) => ({ "data-recipe": r.id })}
      sorting={sorting}
    />
  );
}
