import "server-only";
import { NO_SAFE_UNIT, RECIPE_AGE_STEPS_DAYS, RECIPES, type Recipe } from "@/lib/catalog/recipes";
import { MIN_AGE_HOURS } from "@/lib/cleanup/defaults";
import { freedOf, type Freed } from "@/lib/cleanup/freed";
import { reclaimableByAgent, type AgentReclaimable } from "@/lib/cleanup/reclaimable";
import type { Db } from "@/lib/db";
import { previewRecipes } from "@/lib/db/queries/cleanup-preview-many";

export type CatalogRecipe = Recipe & {
  /** The parameters a new run starts with. */
  defaultParams: { olderThanDays: number };
  /**
   * What the recipe with its defaults would free across the fleet (from the latest reports), and when: now when
   * it deletes, once the trash expires when it trashes (lib/cleanup/freed.ts).
   */
  fleet: { bytes: number; workspaces: number; estimate: boolean } & Freed;
};
export type Catalog = {
  recipes: CatalogRecipe[];
  /** Each agent's recipes summed: the one reclaimable figure of an agent, largest first. */
  agents: AgentReclaimable[];
  noSafeUnit: typeof NO_SAFE_UNIT;
  ageStepsDays: readonly number[];
};

/**
 * GET /api/v1/cleanup/recipes and the Cleanup page: the built-in recipes with their defaults and fleet-wide reach,
 * every recipe previewed over the fleet from one read of the latest roots, with its default parameters and action.
 */
export async function cleanupCatalog(db: Db): Promise<Catalog> {
  const previews = await previewRecipes(
    db,
    RECIPES.map((r) => ({
      recipe: r.id,
      params: { olderThanDays: r.defaultOlderThanDays },
      minAgeHours: MIN_AGE_HOURS.default,
    })),
    { all: true },
  );
  const recipes = RECIPES.map((r, i) => {
    const { bytes, workspaces, estimate } = previews[i].total;
    return {
      ...r,
      defaultParams: { olderThanDays: r.defaultOlderThanDays },
      fleet: { bytes, workspaces, estimate, ...freedOf(bytes, r.defaultAction) },
    };
  });
  return {
    recipes,
    agents: reclaimableByAgent(recipes),
    noSafeUnit: NO_SAFE_UNIT,
    ageStepsDays: RECIPE_AGE_STEPS_DAYS,
  };
}
