import type { WorkspaceScope } from "@/lib/db/scope";
import type { Role } from "@/lib/validations/auth";

/**
 * Who is calling: a signed-in user, or a dashboard API token. `scope` is whose workspaces they may see: a
 * member's own (by Coder username), everyone else the fleet.
 */
export type Caller =
  | { kind: "user"; id: string; label: string; name: string; role: Role; scope: WorkspaceScope }
  | { kind: "token"; id: string; label: string; role: Role; scope: WorkspaceScope };
