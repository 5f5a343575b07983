// An agent's one reclaimable figure: what its recipes, with their defaults, free across the fleet, split into
// what is free now and what only once the trash expires. Summed from the catalog's fleet-wide figures, so the
// overview's top agents, the agent's page and the Cleanup page (and the recipes CSV, summed by agent) agree.
// Plain code: the browser uses the type, the catalog the function.
import type { RecipeId } from "@/lib/catalog/recipes";
import { sumFreed, type Freed } from "./freed";

export type AgentReclaimable = Freed & {
  agent: string;
  /** Some recipe's figure was interpolated inside an age step. */
  estimate: boolean;
  /** The agent's recipes, largest figure first. */
  recipes: RecipeId[];
};

type RecipeReach = { id: RecipeId; agent: string; fleet: Freed & { bytes: number; estimate: boolean } };

export function reclaimableByAgent(recipes: readonly RecipeReach[]): AgentReclaimable[] {
  const agents = [...new Set(recipes.map((r) => r.agent))];
  return agents
    .map((agent) => {
      const mine = recipes.filter((r) => r.agent === agent).sort((a, b) => b.fleet.bytes - a.fleet.bytes);
      return {
        agent,
        ...sumFreed(mine.map((r) => r.fleet)),
        estimate: mine.some((r) => r.fleet.estimate && r.fleet.bytes > 0),
        recipes: mine.map((r) => r.id),
      };
    })
    .sort((a, b) => b.nowBytes + b.laterBytes - (a.nowBytes + a.laterBytes) || a.agent.localeCompare(b.agent));
}

/** Bytes an agent's recipes free in all, now and later. */
export const reclaimableTotal = (r: Freed) => r.nowBytes + r.laterBytes;
