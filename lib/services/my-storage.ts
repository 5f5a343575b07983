import "server-only";
import { RECIPES, type RecipeId } from "@/lib/catalog/recipes";
import { ownerRunRequest } from "@/lib/cleanup/owners";
import { config } from "@/lib/config";
import { previewRecipes } from "@/lib/db/queries/cleanup-preview-many";
import { activeKeeps, trashOf, type KeepRow, type TrashEntry } from "@/lib/db/queries/owner-cleanup";
import { listWorkspaces, type WorkspaceListRow } from "@/lib/db/queries/workspace-list";
import { ownedBy } from "@/lib/db/scope";
import type { Db } from "@/lib/db/types";
import { ownerRecipes } from "./owner-cleanup";

/** One owner-runnable recipe's preview on one of the owner's workspaces (only those that free something). */
export type OwnerOffer = {
  recipe: RecipeId;
  title: string;
  agent: string;
  workspaceId: string;
  units: number;
  bytes: number;
  estimate: boolean;
};

/** GET /api/v1/me/storage: a workspace owner's home page (My storage), in one answer. */
export type MyStorage = {
  /** The Coder username whose workspaces these are; null when the user signs in otherwise (they own none). */
  owner: string | null;
  workspaces: WorkspaceListRow[];
  /** What to run: each owner-runnable recipe with something to move on a workspace, largest first. */
  offers: OwnerOffer[];
  trash: TrashEntry[];
  keeps: KeepRow[];
};

/** The owner's workspaces, what to run on them (each preview from the latest report), their trash and Keeps. */
export async function myStorage(db: Db, owner: string | null, now = new Date()): Promise<MyStorage> {
  if (!owner) return { owner, workspaces: [], offers: [], trash: [], keeps: [] };
  const list = await listWorkspaces(db, ownedBy(owner), { pageSize: 200, now, coderUrl: config().coder.url });
  const workspaces = list.rows.filter((w) => w.coder.deletedAt === null);
  const ids = workspaces.map((w) => w.id);
  const allowed = (await ownerRecipes(db)).filter((f) => f.ownersMayRun).map((f) => f.recipe);
  const runs = allowed.map((recipe) => ({ ...ownerRunRequest(recipe, ""), recipe }));
  const [previews, trash, keeps] = await Promise.all([
    ids.length
      ? previewRecipes(db, runs, { workspaceIds: ids }, { now, includeSilent: true, listAll: true })
      : Promise.resolve([]),
    trashOf(db, ids, now),
    activeKeeps(db, now, ids),
  ]);
  const offers = previews.flatMap((p, i) => {
    const recipe = RECIPES.find((r) => r.id === allowed[i])!;
    return p.workspaces
      .filter((w) => w.bytes > 0)
      .map((w) => ({
        recipe: recipe.id,
        title: recipe.title,
        agent: recipe.agent,
        workspaceId: w.workspaceId,
        units: w.units,
        bytes: w.bytes,
        estimate: w.estimate,
      }));
  });
  offers.sort((a, b) => b.bytes - a.bytes);
  return { owner, workspaces, offers, trash, keeps };
}
