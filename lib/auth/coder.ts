import "server-only";
import { randomUUID } from "node:crypto";
import type { GenericOAuthConfig, GenericOAuthUserInfo } from "better-auth/plugins";
import type { OAuth2Tokens } from "@better-auth/core/oauth2";
import { z } from "zod";
import { config } from "@/lib/config";
import type { CoderDiscovery } from "./coder-discovery";
import { rememberDecision, type OidcDecision } from "./oidc";

// Sign in with Coder: Coder's OAuth2 provider (CODER_URL, CODER_OAUTH2_CLIENT_ID, CODER_OAUTH2_CLIENT_SECRET).
// Coder speaks OAuth2 only (no OpenID Connect, no ID token, no userinfo endpoint): the endpoints come from its
// RFC 8414 discovery document, and the user is Coder's GET /api/v2/users/me, read once per sign-in with the token.
// What every Coder release with the provider accepts: the client's credentials in the form (client_secret_post;
// Basic came in February 2026) and the token in the Coder-Session-Token header (Bearer came in mid-2025). The
// token is needed only for that one read: it is revoked right after, and never stored (lib/auth/hooks.ts).

export const CODER_PROVIDER_ID = "coder";
/** The callback path registered in Coder; Better Auth's own is /callback/coder, which app/api/auth forwards to. */
export const CODER_CALLBACK_PATH = "/api/auth/oauth2/callback/coder";
/** The narrowest scope that reads /api/v2/users/me, where the release names scopes. */
const USER_READ = "user:read";

export function coderSignInConfigured(): boolean {
  return config().coder.oauth !== null;
}

/**
 * Why Coder would refuse the dashboard's callback URL, or null: Coder takes an http:// redirect URI only on a
 * loopback host (codersdk.ValidateRedirectURIScheme: localhost, 127.0.0.1, ::1); anywhere else it must be https.
 */
export function coderCallbackProblem(appUrl: string | null | undefined): string | null {
  if (!appUrl) return null;
  const url = new URL(appUrl);
  if (url.protocol === "https:" || ["localhost", "127.0.0.1", "[::1]"].includes(url.hostname.toLowerCase()))
    return null;
  return (
    `[auth] Sign in with Coder: Coder accepts an http:// callback URL only on localhost, 127.0.0.1 or ::1, and ` +
    `BETTER_AUTH_URL is ${url.origin}: serve the dashboard over https and set BETTER_AUTH_URL to its https URL.`
  );
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

const SUSPENDED = "This is a suspended Coder account: ask a Coder admin to reactivate it, then sign in again.";

/**
 * The policy: a suspended user is refused (Coder refuses their token itself; a dormant one is made active by the
 * very read of /users/me, coderd/httpmw/apikey.go); a site-wide role (empty organization_id) in CODER_ADMIN_ROLES
 * makes an admin, one in CODER_VIEWER_ROLES a viewer, and every other user is a member, who sees only the
 * workspaces they own in Coder (by username). Organization roles give nothing fleet-wide.
 */
export function decideCoderAccess(user: CoderUser): OidcDecision {
  if (user.status === "suspended") return { allowed: false, reason: SUSPENDED };
  if (!user.email) return { allowed: false, reason: "Your Coder account has no email address." };
  const siteRoles = user.roles.filter((r) => !r.organization_id).map((r) => r.name);
  const { adminRoles, viewerRoles } = config().coder;
  const coderUsername = user.username;
  if (siteRoles.some((r) => adminRoles.includes(r))) return { allowed: true, role: "admin", coderUsername };
  if (siteRoles.some((r) => viewerRoles.includes(r))) return { allowed: true, role: "viewer", coderUsername };
  return { allowed: true, role: "member", coderUsername };
}

/** Revokes the token at Coder (RFC 7009); a failure or a release without the route is logged, never fatal. */
async function revoke(discovery: CoderDiscovery, token: string): Promise<void> {
  const oauth = config().coder.oauth!;
  try {
    const res = await fetch(discovery.revocationUrl, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token, client_id: oauth.clientId, client_secret: oauth.clientSecret }),
      signal: AbortSignal.timeout(5000),
    });
    await res.body?.cancel();
    if (!res.ok) console.warn(`[auth] Coder did not revoke the sign-in's token (${res.status}); it expires by itself`);
  } catch (err) {
    console.warn(`[auth] Coder did not revoke the sign-in's token: ${(err as Error).message}`);
  }
}

/**
 * A suspended user's token is refused by Coder, so their account is unknown: the refusal goes the way of every
 * other (the user-creation hook refuses with the reason) under a placeholder address no account can have.
 */
async function refusedUnknown(reason: string): Promise<GenericOAuthUserInfo> {
  const email = `${randomUUID()}@refused.invalid`;
  await rememberDecision(email, { allowed: false, reason });
  return { id: `refused:${email}`, email, name: "", emailVerified: false };
}

/** Coder's answer for the token's user (then the token is revoked), or null (Better Auth then fails the callback). */
async function coderMe(coderUrl: string, discovery: CoderDiscovery, tokens: OAuth2Tokens) {
  const token = tokens.accessToken ?? "";
  let res: Response | null = null;
  try {
    res = await fetch(`${coderUrl}/api/v2/users/me`, {
      headers: { "Coder-Session-Token": token, accept: "application/json" },
      signal: AbortSignal.timeout(10_000),
    });
  } catch (err) {
    console.warn(`[auth] Coder's /api/v2/users/me could not be read: ${(err as Error).message}`);
  }
  const body: unknown = res ? await res.json().catch(() => null) : null;
  // Read or not, the token has served its one purpose.
  await revoke(discovery, token);
  if (!res) return null;
  if (!res.ok) {
    const message = (body as { message?: unknown } | null)?.message;
    const text = typeof message === "string" ? message : "";
    console.warn(`[auth] Coder refused /api/v2/users/me (${res.status}): ${text}`);
    return /status = "suspended"/.test(text) ? refusedUnknown(SUSPENDED) : null;
  }
  const parsed = coderUser.safeParse(body);
  if (!parsed.success) {
    console.warn("[auth] Coder's /api/v2/users/me answered an unexpected shape");
    return null;
  }
  const user = parsed.data;
  const email = user.email.toLowerCase();
  if (email) await rememberDecision(email, decideCoderAccess(user));
  // Coder keeps no verified flag and a user admin may set any address: the address never links this sign-in to an
  // existing account; only the Coder user id does (the account Better Auth keeps under it).
  return { id: user.id, email, name: user.name || user.username, emailVerified: false, username: user.username };
}

/** The provider, from Coder's discovery document; null when Coder sign-in is not configured or not discovered. */
export function coderProvider(discovery: CoderDiscovery | null): GenericOAuthConfig | null {
  const { url: coderUrl, oauth } = config().coder;
  if (!coderUrl || !oauth || !discovery) return null;
  const base = (config().appUrl ?? "").replace(/\/+$/, "");
  return {
    providerId: CODER_PROVIDER_ID,
    name: "Coder",
    authorizationUrl: discovery.authorizationUrl,
    tokenUrl: discovery.tokenUrl,
    clientId: oauth.clientId,
    clientSecret: oauth.clientSecret,
    // Without a scope Coder grants coder:all, a full API key of the person. Releases that name scopes take user:read;
    // earlier ones ignore a scope.
    scopes: discovery.scopes?.includes(USER_READ) ? [USER_READ] : [],
    pkce: true,
    authentication: "post",
    // The URI registered in Coder; without a configured public URL Better Auth builds its own from the request.
    ...(base ? { redirectURI: `${base}${CODER_CALLBACK_PATH}` } : {}),
    overrideUserInfo: true,
    getUserInfo: (tokens) => coderMe(coderUrl, discovery, tokens),
  };
}
