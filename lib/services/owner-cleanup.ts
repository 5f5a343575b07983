import "server-only";
import { addDays } from "date-fns";
import { RECIPES, type RecipeId } from "@/lib/catalog/recipes";
import { keepPathProblem, ownerRecipeFlags, ownerRunRequest, ownersNever, KEEP_MAX_DAYS } from "@/lib/cleanup/owners";
import type { Who } from "@/lib/db/queries/audit";
import { jobWithRun } from "@/lib/db/queries/cleanup-runs";
import { previewRun } from "@/lib/db/queries/cleanup-preview";
import {
  activeKeeps,
  endKeepRow,
  insertKeep,
  keepInForce,
  ownedWorkspace,
  rootPathsOf,
  storedOwnerRecipes,
  upsertOwnerRecipe,
  type KeepRow,
  type OwnedWorkspace,
} from "@/lib/db/queries/owner-cleanup";
import type { Db } from "@/lib/db/types";
import { NotFoundError, ValidationError } from "@/lib/errors";
import { assertConfirmed, createRun, queueRestore } from "./cleanup-runs";
import { withTransaction } from "./transaction";

// The owners' side of cleanup (My storage): a workspace's owner previews and runs the recipes an admin marked for
// owners, restores from the trash and keeps a path, on their own workspaces only. Another's workspace answers
// exactly as an unknown one (404), so a name never leaks. Every change is audited under the owner's name.

/** Who acts, and as which Coder user they own workspaces (null: they own none). */
export type OwnerContext = { db: Db; who: Who; owner: string | null; now?: Date };

const notFound = (id: string) => new NotFoundError(`No workspace ${id} of yours.`);

/** The workspace if the caller owns it; 404 otherwise, as for an unknown id. */
export async function requireOwned(ctx: OwnerContext, workspaceId: string): Promise<OwnedWorkspace> {
  const w = ctx.owner ? await ownedWorkspace(ctx.db, ctx.owner, workspaceId) : undefined;
  if (!w) throw notFound(workspaceId);
  return w;
}

/** The recipes owners may run now (the admins' choices over the defaults). */
export async function ownerRecipes(db: Db) {
  return ownerRecipeFlags(await storedOwnerRecipes(db));
}

async function requireOwnerRecipe(db: Db, recipe: RecipeId) {
  const flags = await ownerRecipes(db);
  if (!flags.some((f) => f.recipe === recipe && f.ownersMayRun)) {
    const title = RECIPES.find((r) => r.id === recipe)?.title ?? recipe;
    throw new ValidationError(
      `${title} is not marked "owners may run": ask an admin to run it, or to mark it for owners.`,
      { recipe },
      "not_for_owners",
    );
  }
}

export type OwnerPreview = {
  workspaceId: string;
  recipe: RecipeId;
  units: number;
  bytes: number;
  estimate: boolean;
  protectedUnits: number;
  protectedBytes: number;
  /** Always "trash": an owner's run never deletes; restorable for trashDays. */
  action: "trash";
  trashDays: number;
  /** The Keeps in force on the workspace: the job skips them, so it frees at most `bytes`. */
  kept: KeepRow[];
};

async function previewOwned(ctx: OwnerContext, workspaceId: string, recipe: RecipeId) {
  await requireOwned(ctx, workspaceId);
  await requireOwnerRecipe(ctx.db, recipe);
  const request = ownerRunRequest(recipe, workspaceId);
  const preview = await previewRun(ctx.db, request, {
    listAll: true,
    includeSilent: true,
    refuseDeleted: true,
    now: ctx.now,
  });
  return { request, preview };
}

/** The owner's preview of a recipe on their workspace: what their run would move to the trash. */
export async function ownerPreview(ctx: OwnerContext, workspaceId: string, recipe: RecipeId): Promise<OwnerPreview> {
  const { request, preview } = await previewOwned(ctx, workspaceId, recipe);
  const w = preview.workspaces[0];
  return {
    workspaceId,
    recipe,
    units: w?.units ?? 0,
    bytes: w?.bytes ?? 0,
    estimate: w?.estimate ?? false,
    protectedUnits: w?.protectedUnits ?? preview.total.protectedUnits,
    protectedBytes: w?.protectedBytes ?? preview.total.protectedBytes,
    action: "trash",
    trashDays: request.trashDays,
    kept: await activeKeeps(ctx.db, ctx.now ?? new Date(), [workspaceId]),
  };
}

/**
 * The owner's run: the preview they saw (409 when it moved by over 10 %), to the trash, without an admin's
 * confirmation; its job may act on no more units and bytes than that preview showed (lib/cleanup/leases.ts).
 */
export async function ownerRun(
  ctx: OwnerContext,
  body: { workspaceId: string; recipe: RecipeId; confirmBytes: number },
): Promise<{ id: string; jobs: number }> {
  const { request, preview } = await previewOwned(ctx, body.workspaceId, body.recipe);
  assertConfirmed(preview, body.confirmBytes);
  return createRun(ctx.db, { ...request, confirmBytes: body.confirmBytes, includeSilent: true }, ctx.who, {
    preview,
    byOwner: true,
    audit: { byOwner: true, owner: ctx.owner, workspaceId: body.workspaceId },
  });
}

/** The owner's restore of a trashed job on their workspace; 404 for another's job, 409 once its trash expired. */
export async function ownerRestore(ctx: OwnerContext, jobId: string) {
  const found = await jobWithRun(ctx.db, jobId);
  const w = found && ctx.owner ? await ownedWorkspace(ctx.db, ctx.owner, found.job.workspaceId) : undefined;
  if (!w) throw new NotFoundError(`No cleanup job ${jobId} on a workspace of yours.`);
  return queueRestore(ctx.db, jobId, ctx.who);
}

/**
 * A Keep on a unit or folder of the owner's workspace, for 1 to 14 days: inside one of its roots (as its latest
 * report lists them), never another's workspace. Refused with nothing stored otherwise.
 */
export async function addKeep(ctx: OwnerContext, body: { workspaceId: string; path: string; days: number }) {
  await requireOwned(ctx, body.workspaceId);
  if (!Number.isInteger(body.days) || body.days < 1 || body.days > KEEP_MAX_DAYS)
    throw new ValidationError(`A Keep lasts 1 to ${KEEP_MAX_DAYS} days; ${body.days} was asked.`, { days: body.days });
  const path = body.path.replace(/\/+$/, "");
  const problem = keepPathProblem(path, await rootPathsOf(ctx.db, body.workspaceId));
  if (problem) throw new ValidationError(problem, { path });
  return withTransaction(ctx, async ({ tx, now, who, audit }) => {
    const expiresAt = addDays(now, body.days);
    const a = who.actor;
    const id = await insertKeep(tx, {
      workspaceId: body.workspaceId,
      path,
      createdAt: now,
      expiresAt,
      createdById: "id" in a ? a.id : "",
      createdByLabel: a.label ?? a.type,
    });
    await audit({
      action: "cleanup.keep_added",
      target: id,
      details: { workspaceId: body.workspaceId, path, days: body.days, expiresAt: expiresAt.toISOString() },
    });
    return { id, path, expiresAt: expiresAt.toISOString() };
  });
}

/** Ends a Keep in force: an admin's any, an owner's only on their own workspace (404 otherwise). */
export async function endKeep(ctx: OwnerContext, id: string, asAdmin: boolean) {
  const now = ctx.now ?? new Date();
  const keep = await keepInForce(ctx.db, id, now);
  const mine = keep && ctx.owner ? await ownedWorkspace(ctx.db, ctx.owner, keep.workspaceId) : undefined;
  if (!keep || (!asAdmin && !mine)) throw new NotFoundError(`No Keep ${id} in force${asAdmin ? "" : " of yours"}.`);
  return withTransaction({ ...ctx, now }, async ({ tx, who, audit }) => {
    const ended = await endKeepRow(tx, id, now, who.actor.label ?? who.actor.type);
    if (!ended) throw new NotFoundError(`No Keep ${id} in force.`);
    await audit({
      action: "cleanup.keep_ended",
      target: id,
      details: { workspaceId: ended.workspaceId, path: ended.path, owner: keep.owner },
    });
    return { id, ended: true };
  });
}

/** An admin marks a recipe "owners may run", or not (audited); a package cache never. */
export async function setOwnerRecipe(ctx: { db: Db; who: Who }, recipe: RecipeId, ownersMayRun: boolean) {
  const never = ownersNever(recipe);
  if (never && ownersMayRun) throw new ValidationError(never, { recipe });
  return withTransaction(ctx, async ({ tx, now, who, audit }) => {
    await upsertOwnerRecipe(tx, recipe, ownersMayRun, now, who.actor.label ?? who.actor.type);
    await audit({ action: "cleanup.owner_recipe_set", target: recipe, details: { ownersMayRun } });
    return { recipe, ownersMayRun };
  });
}
