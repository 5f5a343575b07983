import "server-only";
import { and, inArray, isNotNull } from "drizzle-orm";
import { AppError } from "@/lib/errors";
import { workspaces } from "../schema";
import type { Db } from "../types";

/**
 * Refuses cleanup on workspaces deleted in Coder (409 `workspace_deleted`, naming them): their volume is gone, so
 * no reporter will ever claim a job there. Scopes by owner, template or the fleet leave them out instead.
 */
export async function refuseDeletedWorkspaces(db: Db, workspaceIds: readonly string[]): Promise<void> {
  if (workspaceIds.length === 0) return;
  const gone = await db
    .select({ id: workspaces.id, name: workspaces.name, owner: workspaces.owner, deletedAt: workspaces.deletedAt })
    .from(workspaces)
    .where(and(inArray(workspaces.id, [...workspaceIds]), isNotNull(workspaces.deletedAt)));
  if (gone.length === 0) return;
  const names = gone.map((w) => `${w.owner}/${w.name}`).join(", ");
  throw new AppError(
    409,
    "workspace_deleted",
    `Cleanup is refused: ${names} ${gone.length === 1 ? "was" : "were"} deleted in Coder, and ${gone.length === 1 ? "its" : "their"} storage with ${gone.length === 1 ? "it" : "them"}.`,
    { workspaces: gone.map((w) => ({ id: w.id, deletedAt: w.deletedAt!.toISOString() })) },
  );
}
