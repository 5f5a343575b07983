import { z } from "zod";

// Roles, and the parameters of the sign-in, user, token and audit endpoints: read by route handlers, pages,
// the token CLI and the browser alike, so no database code here.

// Lowest first: a member sees only the workspaces they own in Coder, a viewer the whole fleet, an admin acts.
export const ROLES = ["member", "viewer", "admin"] as const;
export type Role = (typeof ROLES)[number];
/**
 * The roles an admin gives to users and API tokens. Members come only from "Sign in with Coder", which names
 * whose workspaces they own; a password user or a token as a member would own nothing.
 */
export const ASSIGNABLE_ROLES = ["viewer", "admin"] as const;
export type AssignableRole = (typeof ASSIGNABLE_ROLES)[number];
export const roleSchema = z.enum(ASSIGNABLE_ROLES);

/** Whether `role` may do what `needed` allows (each role can do everything the roles below it can). */
export function hasRole(role: Role, needed: Role): boolean {
  return ROLES.indexOf(role) >= ROLES.indexOf(needed);
}

/** A role as stored; anything unknown reads as the lowest, member, never as more. */
export const storedRole = (stored: string | null): Role =>
  stored === "admin" || stored === "viewer" ? stored : "member";

/** The lower of two roles: what a token may do under its owner. */
export const lowerRole = (a: Role, b: Role): Role => (hasRole(a, b) ? b : a);

export const email = z.string().trim().toLowerCase().pipe(z.email());
// Better Auth's own bounds for a password (8..128).
export const password = z.string().min(8, "must be at least 8 characters").max(128);

export const setupRequest = z.object({ email, password, name: z.string().trim().min(1).max(100).optional() });
export type SetupRequest = z.infer<typeof setupRequest>;

/** Create a user: with a password, or (invite) without one, in which case a one-time link is returned. */
export const createUserRequest = z.object({
  email,
  name: z.string().trim().min(1).max(100).optional(),
  role: roleSchema.default("viewer"),
  password: password.optional(),
});
export type CreateUserRequest = z.infer<typeof createUserRequest>;

export const updateUserRequest = z
  .object({ role: roleSchema.optional(), disabled: z.boolean().optional() })
  .refine((v) => v.role !== undefined || v.disabled !== undefined, { message: "send role and/or disabled" });
export type UpdateUserRequest = z.infer<typeof updateUserRequest>;

export const createTokenRequest = z.object({
  name: z.string().trim().min(1).max(64),
  role: roleSchema,
  expiresInDays: z.number().int().min(1).max(3650).optional(),
});
export type CreateTokenRequest = z.infer<typeof createTokenRequest>;

/** A path on this site: one leading slash, no backslash (browsers read both `//` and `/\\` as another host). */
const isSitePath = (path: string) => path.startsWith("/") && !path.startsWith("//") && !path.includes("\\");

/**
 * A `next` parameter that may only point back into this site: a path starting with one slash. What is checked is
 * the normalised path that is returned (and used), not the input: `/.//evil.example` normalises to
 * `//evil.example`, another site.
 */
export function safeNextPath(value: unknown, fallback = "/"): string {
  if (typeof value !== "string" || !isSitePath(value)) return fallback;
  // Control characters could smuggle a scheme or host past the checks above once a browser normalises them.
  if (/[\u0000-\u001f\u007f]/.test(value)) return fallback;
  try {
    const url = new URL(value, "http://x.invalid");
    const path = `${url.pathname}${url.search}${url.hash}`;
    return url.origin === "http://x.invalid" && isSitePath(path) ? path : fallback;
  } catch {
    return fallback;
  }
}

// Better Auth's callback errors that a person can act on, by code.
const SIGN_IN_ERRORS: Record<string, string> = {
  unable_to_get_user_info: "The sign-in provider did not hand over your account; try again, or ask an admin.",
  account_not_linked:
    "An account with this email address already exists here. Sign in with its password: a Coder sign-in joins an " +
    "account only by its Coder user.",
};

/**
 * The message the sign-in page shows after a failed single sign-on (Better Auth's ?error=&error_description=). Kept
 * short: a crafted link can put only a brief message here (React escapes it).
 */
export function signInErrorMessage(error: string | null | undefined, description: string | null | undefined) {
  const message = description ?? (error ? (SIGN_IN_ERRORS[error] ?? `Single sign-on failed (${error}).`) : undefined);
  return message?.slice(0, 200);
}
