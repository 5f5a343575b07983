import "server-only";
import { defineRequestState } from "@better-auth/core/context";
import type { GenericOAuthConfig, GenericOAuthUserInfo } from "better-auth/plugins";
import { config } from "@/lib/config";
import type { Role } from "@/lib/validations/auth";

// Single sign-on with the OpenID Connect provider Coder already uses (OIDC_ISSUER_URL, OIDC_CLIENT_ID,
// OIDC_CLIENT_SECRET). Who may sign in and as what is decided here from the provider's claims, at every sign-in.

export const OIDC_PROVIDER_ID = "oidc";

export function oidcConfigured(): boolean {
  return config().oidc.client !== null;
}

/** `coderUsername`: with Coder's sign-in, whose workspaces a member owns (kept on the user at every sign-in). */
export type OidcDecision = { allowed: true; role: Role; coderUsername?: string } | { allowed: false; reason: string };

/** The policy: a verified email, in an allowed domain; admin by group or by email, everyone else a viewer. */
export function decideOidcAccess(claims: Record<string, unknown>): OidcDecision {
  const email = typeof claims.email === "string" ? claims.email.toLowerCase() : "";
  if (!email) return { allowed: false, reason: "The identity provider sent no email address." };
  if (claims.email_verified !== true && claims.emailVerified !== true) {
    return { allowed: false, reason: `The email address ${email} is not verified at the identity provider.` };
  }
  const { allowedDomains: domains, groupsClaim, adminGroups, adminEmails } = config().oidc;
  const domain = email.slice(email.lastIndexOf("@") + 1);
  if (domains.length && !domains.includes(domain)) {
    return {
      allowed: false,
      reason: `Accounts in ${domain} may not sign in to this dashboard (allowed: ${domains.join(", ")}).`,
    };
  }
  const claim = claims[groupsClaim];
  const groups = Array.isArray(claim) ? claim.map(String) : typeof claim === "string" ? claim.split(/[\s,]+/) : [];
  const isAdmin = groups.some((g) => adminGroups.includes(g)) || adminEmails.includes(email);
  return { allowed: true, role: isAdmin ? "admin" : "viewer" };
}

// The claims (or Coder's user) are seen in the provider's user lookup; the user and session are made a few steps
// later in the same callback request. The decision waits in that request's own state (Better Auth runs every
// endpoint in one), so a sign-in only ever reads its own: two sign-ins for one email at once cannot swap theirs.
// It is for one email, and is taken (gone) when the session is made.
const pending = defineRequestState<{ email: string; decision: OidcDecision } | null>(() => null);

export async function rememberDecision(email: string, decision: OidcDecision): Promise<void> {
  await pending.set({ email: email.toLowerCase(), decision });
}

/** This callback's decision for `email`, or undefined; `take` removes it (the last step that reads it). */
export async function oidcDecision(email: string, take = false): Promise<OidcDecision | undefined> {
  const mine = await pending.get();
  if (take) await pending.set(null);
  return mine?.email === email.toLowerCase() ? mine.decision : undefined;
}

let warned = false;

export function oidcProvider(): GenericOAuthConfig | null {
  const { client, displayName, scopes } = config().oidc;
  if (!client) return null;
  if (!config().appUrl && !warned) {
    warned = true;
    // Next hands route handlers its own bind address, so the callback URL would name localhost.
    console.warn("[auth] single sign-on needs BETTER_AUTH_URL (the dashboard's public URL) to build its callback URL");
  }
  const issuer = client.issuerUrl.replace(/\/+$/, "");
  return {
    providerId: OIDC_PROVIDER_ID,
    name: displayName,
    discoveryUrl: `${issuer}/.well-known/openid-configuration`,
    clientId: client.clientId,
    clientSecret: client.clientSecret,
    scopes,
    pkce: true,
    // client_secret_basic: the method every OpenID provider must support (Better Auth would otherwise post the secret).
    authentication: "basic",
    requireIdTokenVerification: true,
    overrideUserInfo: true,
    mapProfileToUser: async (profile: GenericOAuthUserInfo) => {
      const email = typeof profile.email === "string" ? profile.email.toLowerCase() : "";
      if (email) await rememberDecision(email, decideOidcAccess(profile));
      return {};
    },
  };
}
