"use client";

import { useQuery } from "@tanstack/react-query";
import { trashWaitText } from "@/lib/cleanup/freed";
import { catalogOptions } from "@/lib/query/cleanup";
import { exportPaths } from "@/lib/validations/export";
import { agentLabel } from "@/components/agents/agent-label";
import { useIsAdmin } from "@/components/auth/caller-context";
import { ExportLink } from "@/components/ui/export-link";
import { Panel } from "@/components/ui/panel";
import { FreedSplit } from "./reclaimable";
import { RecipesTable } from "./recipes-table";

/**
 * The agent page's reclaimable figure (the one the overview's top agents and the Cleanup page show) and the
 * agent's recipes that make it, largest first. Nothing for an agent no recipe cleans.
 */
export function AgentReclaimablePanel({ agent }: { agent: string }) {
  const { data } = useQuery(catalogOptions());
  const isAdmin = useIsAdmin();
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
      <RecipesTable
        recipes={data.recipes.filter((r) => r.agent === agent)}
        isAdmin={isAdmin}
        testId="agent-recipes"
        oneAgent
      />
    </Panel>
  );
}
