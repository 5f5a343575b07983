import "server-only";
import type { GenericOAuthConfig, GenericOAuthUserInfo } from "better-auth/plugins";
import type { OAuth2Tokens } from "@better-auth/core/oauth2";
import { z } from "zod";
import { config } from "@/lib/config";
import { rememberDecision, type OidcDecision } from "./oidc";

// Sign in with Coder: Coder's OAuth2 provider (CODER_URL, CODER_OAUTH2_CLIENT_ID, CODER_OAUTH2_CLIENT_SECRET).
// Coder speaks OAuth2 only (no OpenID Connect, no ID token, no userinfo endpoint): the endpoints come from its
// RFC 8414 discovery document, and the user is Coder's GET /api/v2/users/me with the access token, asked once per
// sign-in (Coder's OAuth2 endpoints share its login rate limit). Roles are read from it at every sign-in.

export const CODER_PROVIDER_ID = "coder";
/** The callback path registered in Coder; Better Auth's own is /callback/coder, which app/api/auth forwards to. */
export const CODER_CALLBACK_PATH = "/api/auth/oauth2/callback/coder";

export function coderSignInConfigured(): boolean {
  return config().coder.oauth !== null;
}

/** The part of Coder's User that the sign-in reads. */
export const coderUser = z.object({
  id: z.string().min(1),
  username: z.string().min(1),
  email: z.string(),
  name: z.string().optional().default(""),
  status: z.string(),
  roles: z.array(z.object({ name: z.string(), organization_id: z.string().optional().default("") })).default([]),
});
export type CoderUser = z.infer<typeof coderUser>;

/**
 * The policy: suspended and dormant users are refused; a site-wide role (empty organization_id) in
 * CODER_ADMIN_ROLES makes an admin, one in CODER_VIEWER_ROLES a viewer, and every other active user is a member,
 * who sees only the workspaces they own in Coder (by username). Organization roles give nothing fleet-wide.
 */
export function decideCoderAccess(user: CoderUser): OidcDecision {
  if (user.status !== "active") {
    return {
      allowed: false,
      reason: `Your Coder account is ${user.status}: ask a Coder admin to reactivate it, then sign in again.`,
    };
  }
  if (!user.email) return { allowed: false, reason: "Your Coder account has no email address." };
  const siteRoles = user.roles.filter((r) => !r.organization_id).map((r) => r.name);
  const { adminRoles, viewerRoles } = config().coder;
  const coderUsername = user.username;
  if (siteRoles.some((r) => adminRoles.includes(r))) return { allowed: true, role: "admin", coderUsername };
  if (siteRoles.some((r) => viewerRoles.includes(r))) return { allowed: true, role: "viewer", coderUsername };
  return { allowed: true, role: "member", coderUsername };
}

/** Coder's answer for the token's user, or null (Better Auth then fails the callback). */
async function coderMe(coderUrl: string, tokens: OAuth2Tokens): Promise<GenericOAuthUserInfo | null> {
  const res = await fetch(`${coderUrl}/api/v2/users/me`, {
    headers: { authorization: `Bearer ${tokens.accessToken}`, accept: "application/json" },
    signal: AbortSignal.timeout(10_000),
  });
  const body: unknown = await res.json().catch(() => null);
  if (!res.ok) {
    // A suspended user is refused here by Coder itself (401 with a message naming the status).
    const message = (body as { message?: unknown } | null)?.message;
    console.warn(
      `[auth] Coder refused /api/v2/users/me (${res.status}): ${typeof message === "string" ? message : ""}`,
    );
    return null;
  }
  const parsed = coderUser.safeParse(body);
  if (!parsed.success) {
    console.warn("[auth] Coder's /api/v2/users/me answered an unexpected shape");
    return null;
  }
  const user = parsed.data;
  const email = user.email.toLowerCase();
  if (email) rememberDecision(email, decideCoderAccess(user));
  return { id: user.id, email, name: user.name || user.username, emailVerified: true, username: user.username };
}

export function coderProvider(): GenericOAuthConfig | null {
  const { url: coderUrl, oauth } = config().coder;
  if (!coderUrl || !oauth) return null;
  const base = (config().appUrl ?? "").replace(/\/+$/, "");
  return {
    providerId: CODER_PROVIDER_ID,
    name: "Coder",
    discoveryUrl: `${coderUrl}/.well-known/oauth-authorization-server`,
    clientId: oauth.clientId,
    clientSecret: oauth.clientSecret,
    // No scopes: Coder refuses openid, and its default grants what /api/v2/users/me needs.
    scopes: [],
    pkce: true,
    authentication: "basic",
    // The URI registered in Coder; without a configured public URL Better Auth builds its own from the request.
    ...(base ? { redirectURI: `${base}${CODER_CALLBACK_PATH}` } : {}),
    overrideUserInfo: true,
    getUserInfo: (tokens) => coderMe(coderUrl, tokens),
  };
}
