"use client";

import type { Catalog } from "@/lib/db/queries/cleanup-catalog";
import { agentLabel } from "@/components/agents/agent-label";
import { DataTable } from "@/components/ui/data-table";
import { recipeColumns } from "./cleanup-columns";
import { useLocalSort } from "./reclaimable";

type Recipe = Catalog["recipes"][number];

/**
 * Recipes by what they free (now and later together) unless the admin sorts otherwise: every recipe on the cleanup
 * page, one agent's on its page (where the agent and unit columns would repeat the same value on every row).
 */
export function RecipesTable({
  recipes,
  isAdmin,
  testId,
  oneAgent = false,
}: {
  recipes: Catalog["recipes"];
  isAdmin: boolean;
  testId: string;
  oneAgent?: boolean;
}) {
  const all = recipeColumns(isAdmin);
  const { rows, columns, sorting } = useLocalSort(
    recipes,
    oneAgent ? all.filter((c) => c.id !== "agent" && c.id !== "unit") : all,
    {
      recipe: (r: Recipe) => r.title,
      agent: (r: Recipe) => agentLabel(r.agent),
      now: (r: Recipe) => r.fleet.nowBytes,
      later: (r: Recipe) => r.fleet.laterBytes,
      workspaces: (r: Recipe) => r.fleet.workspaces,
      total: (r: Recipe) => r.fleet.bytes,
    },
  );
  return (
    <DataTable
      data={rows}
      columns={columns}
      rowId={(r) => r.id}
      testId={testId}
      rowProps={(r) => (oneAgent ? { "data-recipe": r.id } : { "data-recipe": r.id, "data-agent": r.agent })}
      sorting={sorting}
      stacked={oneAgent ? undefined : 3}
    />
  );
}
