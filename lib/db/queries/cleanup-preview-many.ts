import "server-only";
import { and, eq, isNull, or } from "drizzle-orm";
import { RECIPES, type RecipeId } from "@/lib/catalog/recipes";
import { recipesForRoot } from "@/lib/catalog/recipe-roots";
import type { RunRequest, Scope } from "@/lib/cleanup/protocol";
import { rootLatest, workspaces } from "../schema";
import type { Db } from "../types";
import { silentHours } from "@/lib/findings/rules";
import { previewColumns, runRoots, scopeMatch } from "./cleanup-preview";
import { tallyPreview, type CleanupPreview, type PreviewRow } from "./cleanup-preview-tally";
import { getRules } from "./findings";

// Many recipes' previews over one scope from one read of the latest roots: the free-space view of a workspace
// (every recipe, twice) and the catalog's fleet-wide figures asked for one preview a recipe before (55 requests
// for a workspace, 27 queries for the fleet). Each preview is tallied as previewRun tallies it
// (cleanup-preview-tally.ts), from the same rows it would read, so the figures are the same.

/** One recipe's run over the scope, as the preview of a run with these fields. */
export type RecipeRunFields = Pick<RunRequest, "params" | "minAgeHours"> & { recipe: RecipeId };

export async function previewRecipes(
  db: Db,
  runs: readonly RecipeRunFields[],
  scope: Scope,
  opts: { now?: Date; includeSilent?: boolean; silentHours?: number; listAll?: boolean } = {},
): Promise<CleanupPreview[]> {
  if (runs.length === 0) return [];
  const now = opts.now ?? new Date();
  const hours = opts.silentHours ?? silentHours(await getRules(db));
  const recipes = [...new Set(runs.map((r) => r.recipe))].map((id) => RECIPES.find((r) => r.id === id)!);
  const rows = await db
    .select({
      ...previewColumns(or(...recipes.filter((r) => r.unitsSince).map((r) => runRoots(r, undefined)))),
      kind: rootLatest.kind,
      path: rootLatest.path,
      orphaned: rootLatest.orphaned,
      recipes: rootLatest.recipes,
    })
    .from(rootLatest)
    .innerJoin(workspaces, eq(workspaces.id, rootLatest.workspaceId))
    .where(and(or(...recipes.map((r) => runRoots(r, undefined))), scopeMatch(scope), isNull(workspaces.deletedAt)));

  // Which of the recipes act on each root, by the rule runRoots writes in SQL (lib/catalog/recipe-roots.ts).
  const actsOn = rows.map(
    (r) =>
      new Set(
        recipesForRoot({ key: r.rootKey, kind: r.kind, path: r.path, orphaned: r.orphaned }, recipes).map((x) => x.id),
      ),
  );
  return runs.map((run) => {
    const recipe = recipes.find((r) => r.id === run.recipe)!;
    const mine: PreviewRow[] = rows.flatMap((r, i) =>
      actsOn[i].has(run.recipe) ? [{ ...r, usage: r.recipes[run.recipe] ?? null }] : [],
    );
    return tallyPreview(mine, recipe, run, { ...opts, now, silentHours: hours });
  });
}

/** What the trash of a workspace holds as of its latest report (its root of kind "trash"); null when not listed. */
export async function latestTrash(db: Db, workspaceId: string): Promise<{ bytes: number } | null> {
  const [row] = await db
    .select({ bytes: rootLatest.bytes })
    .from(rootLatest)
    .where(and(eq(rootLatest.workspaceId, workspaceId), eq(rootLatest.kind, "trash")));
  return row ? { bytes: Number(row.bytes) } : null;
}
