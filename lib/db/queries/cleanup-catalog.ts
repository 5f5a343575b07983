import "server-only";
import { NO_SAFE_UNIT, RECIPE_AGE_STEPS_DAYS, RECIPES, type Recipe } from "@/lib/catalog/recipes";
import type { Db } from "@/lib/db";
import { fleetFreeable } from "@/lib/db/queries/cleanup-preview";

export type CatalogRecipe = Recipe & {
  /** The parameters a new run starts with. */
  defaultParams: { olderThanDays: number };
  /** What the recipe with its defaults would free across the fleet now (from the latest reports). */
  fleet: { bytes: number; workspaces: number; estimate: boolean };
};
export type Catalog = { recipes: CatalogRecipe[]; noSafeUnit: typeof NO_SAFE_UNIT; ageStepsDays: readonly number[] };

/** GET /api/v1/cleanup/recipes and the Cleanup page: the built-in recipes with their defaults and fleet-wide reach. */
export async function cleanupCatalog(db: Db): Promise<Catalog> {
  const fleet = await fleetFreeable(db);
  return {
    recipes: RECIPES.map((r) => ({
      ...r,
      defaultParams: { olderThanDays: r.defaultOlderThanDays },
      fleet: fleet[r.id],
    })),
    noSafeUnit: NO_SAFE_UNIT,
    ageStepsDays: RECIPE_AGE_STEPS_DAYS,
  };
}
