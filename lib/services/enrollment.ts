import "server-only";
import { config } from "@/lib/config";
import { deleteWorkspaceToken, storeEnrollmentKey } from "@/lib/enrollment/workspaces";
import { ConflictError, NotFoundError } from "@/lib/errors";
import { generateToken } from "@/lib/secrets/tokens";
import { withTransaction, type ChangeContext } from "./transaction";

/** Admin action: forgets a workspace's token so it can enroll again with only the enrollment key. */
export function resetWorkspaceToken(ctx: ChangeContext, workspaceId: string): Promise<void> {
  return withTransaction(ctx, async ({ tx, audit }) => {
    if (!(await deleteWorkspaceToken(tx, workspaceId)))
      throw new NotFoundError(`Workspace ${workspaceId} has no token.`);
    await audit({ action: "workspace.token_reset", target: workspaceId });
  });
}

/**
 * Admin action: replaces the generated enrollment key. Workspaces already enrolled keep their tokens; new ones
 * need the new key. A key set by STORAGE_ENROLLMENT_KEY is changed there, not here.
 */
export async function rotateEnrollmentKey(ctx: ChangeContext): Promise<void> {
  if (config().enrollmentKey) {
    throw new ConflictError("The enrollment key is set by STORAGE_ENROLLMENT_KEY: change it there and restart.");
  }
  const key = generateToken("sek");
  await withTransaction(ctx, async ({ tx, audit }) => {
    await storeEnrollmentKey(tx, key);
    await audit({ action: "enrollment_key.rotated" });
  });
}
