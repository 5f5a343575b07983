import type { AssignableRole } from "@/lib/validations/auth";

// A dashboard API token's role lives in its API key's permissions ({ dashboard: [role] }), as Better Auth's
// API-key plugin stores them (a JSON string in the row, an object from the plugin).

type Permissions = string | Record<string, string[]> | null | undefined;

/** The role a token's permissions give, or null when they give none (not a dashboard token). */
export function tokenRole(permissions: Permissions): AssignableRole | null {
  const parsed = typeof permissions === "string" ? (JSON.parse(permissions) as Record<string, string[]>) : permissions;
  const role = parsed?.dashboard?.[0];
  return role === "admin" || role === "viewer" ? role : null;
}

export const tokenPermissions = (role: AssignableRole) => ({ dashboard: [role] });
