import "server-only";
import type { RecipeId } from "@/lib/catalog/recipes";
import { freeSpaceRows, FREE_SPACE_CHOICES } from "@/lib/cleanup/free-space";
import { refuseDeletedWorkspaces } from "@/lib/db/queries/cleanup-deleted";
import type { CleanupPreview } from "@/lib/db/queries/cleanup-preview";
import { latestTrash, previewRecipes } from "@/lib/db/queries/cleanup-preview-many";
import type { Db } from "@/lib/db/types";

/** POST /api/v1/cleanup/preview/free-space: the free-space view of one workspace in one answer. */
export type FreeSpacePreview = {
  workspaceId: string;
  /** Every recipe, in the catalog's order: its preview with its defaults and with everything past the minimum age. */
  recipes: { recipe: RecipeId; defaults: CleanupPreview; minimum: CleanupPreview }[];
  /** What the workspace's trash holds as of its latest report: emptying it frees that now. */
  trash: { bytes: number } | null;
};

/**
 * Every recipe's two previews on one workspace (the runs the view confirms, built as it builds them), from one
 * read of the workspace's latest roots; the workspace was picked by name, so it is previewed even when silent.
 * Refused (409) for a workspace deleted in Coder, as its runs would be.
 */
export async function freeSpacePreview(db: Db, workspaceId: string, now?: Date): Promise<FreeSpacePreview> {
  await refuseDeletedWorkspaces(db, [workspaceId]);
  const rows = freeSpaceRows(workspaceId);
  const runs = rows.flatMap((r) => FREE_SPACE_CHOICES.map((c) => ({ ...r.runs[c], recipe: r.recipe.id })));
  const [previews, trash] = await Promise.all([
    previewRecipes(db, runs, { workspaceIds: [workspaceId] }, { now, includeSilent: true, listAll: true }),
    latestTrash(db, workspaceId),
  ]);
  return {
    workspaceId,
    recipes: rows.map((r, i) => ({
      recipe: r.recipe.id,
      defaults: previews[i * FREE_SPACE_CHOICES.length],
      minimum: previews[i * FREE_SPACE_CHOICES.length + 1],
    })),
    trash,
  };
}
