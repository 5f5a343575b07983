import { FLEET, ownedBy, type WorkspaceScope } from "@/lib/db/scope";
import type { Role } from "@/lib/validations/auth";

/**
 * Who is calling: a signed-in user, or a dashboard API token (acting with at most its owner's current rights).
 * `scope` is whose workspaces they may see: a member's own (by Coder username), everyone else the fleet.
 */
export type Caller =
  | { kind: "user"; id: string; label: string; name: string; role: Role; scope: WorkspaceScope }
  | { kind: "token"; id: string; ownerId: string; label: string; role: Role; scope: WorkspaceScope };

/** The user whose rights a caller acts with: the signed-in user, or the token's owner. */
export const actingUserId = (caller: Caller) => (caller.kind === "user" ? caller.id : caller.ownerId);

/** Whose workspaces a role sees. A member without a Coder username (which no sign-in makes) owns nothing. */
export const scopeOf = (role: Role, coderUsername: string | null): WorkspaceScope =>
  role === "member" ? ownedBy(coderUsername ?? "") : FLEET;
