import { sql, type AnyColumn, type SQL } from "drizzle-orm";

/**
 * Whose workspaces a read may see: the whole fleet (viewers, admins, API tokens), or the workspaces one Coder
 * user owns (members). Every read of workspace data takes one as a required argument, so that no query can
 * forget it and no page or export can show a member anyone else's data.
 */
export type WorkspaceScope = { kind: "fleet" } | { kind: "owner"; owner: string };

export const FLEET: WorkspaceScope = { kind: "fleet" };

/** One Coder user's workspaces. */
export const ownedBy = (owner: string): WorkspaceScope => ({ kind: "owner", owner });

/**
 * The condition on a workspace owner column (`workspaces.owner`, the Coder username the reporter sends and the
 * sync keeps current). Coder treats usernames case-insensitively, and so does this.
 */
export function inScope(scope: WorkspaceScope, owner: AnyColumn | SQL): SQL {
  return scope.kind === "fleet" ? sql`true` : sql`lower(${owner}) = lower(${scope.owner})`;
}
