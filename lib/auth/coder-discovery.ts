import "server-only";
import { z } from "zod";

// Coder's OAuth2 discovery document (RFC 8414), read on demand. While Coder's provider is off every /oauth2 route
// and the document answer 404 (RequireOAuth2Provider), so a missing document is asked for again on a later
// sign-in, no sooner than the backoff says (1 s doubling to 30 s): once an admin turns the provider on, Sign in
// with Coder works within a minute, without a restart. A document once read is kept for the process.

const documentSchema = z.object({
  authorization_endpoint: z.string().url(),
  token_endpoint: z.string().url(),
  revocation_endpoint: z.string().url().optional(),
  /** Published since coder/coder #19942; absent on earlier releases, which ignore a requested scope. */
  scopes_supported: z.array(z.string()).optional(),
});

export type CoderDiscovery = {
  authorizationUrl: string;
  tokenUrl: string;
  /** Where a token is revoked; Coder's own path when the document does not name one. */
  revocationUrl: string;
  /** The scopes Coder names, or null on a release that names none. */
  scopes: string[] | null;
};

const FIRST_WAIT_MS = 1000;
const LONGEST_WAIT_MS = 30_000;

let found: { url: string; discovery: CoderDiscovery } | null = null;
let nextTry = 0;
let wait = FIRST_WAIT_MS;
let pending: Promise<CoderDiscovery | null> | null = null;

async function read(coderUrl: string): Promise<CoderDiscovery | null> {
  try {
    const res = await fetch(`${coderUrl}/.well-known/oauth-authorization-server`, {
      headers: { accept: "application/json" },
      signal: AbortSignal.timeout(3000),
    });
    const parsed = documentSchema.safeParse(res.ok ? await res.json() : null);
    if (!parsed.success) {
      console.warn(`[auth] Coder's OAuth2 provider is not on at ${coderUrl} (${res.status}); asking again later`);
      return null;
    }
    const d = parsed.data;
    return {
      authorizationUrl: d.authorization_endpoint,
      tokenUrl: d.token_endpoint,
      revocationUrl: d.revocation_endpoint ?? `${coderUrl}/oauth2/revoke`,
      scopes: d.scopes_supported ?? null,
    };
  } catch (err) {
    console.warn(`[auth] Coder's discovery document could not be read: ${(err as Error).message}`);
    return null;
  }
}

/** The discovery document of `coderUrl`: kept once read; else read now when the backoff allows, else null. */
export async function coderDiscovery(coderUrl: string): Promise<CoderDiscovery | null> {
  if (found?.url === coderUrl) return found.discovery;
  if (pending) return pending;
  if (Date.now() < nextTry) return null;
  pending = read(coderUrl).then((discovery) => {
    pending = null;
    if (discovery) {
      found = { url: coderUrl, discovery };
      wait = FIRST_WAIT_MS;
    } else {
      nextTry = Date.now() + wait;
      wait = Math.min(wait * 2, LONGEST_WAIT_MS);
    }
    return discovery;
  });
  return pending;
}

/** Forgets the document and the backoff (tests that start another stand-in). */
export function resetCoderDiscoveryForTests(): void {
  found = null;
  nextTry = 0;
  wait = FIRST_WAIT_MS;
  pending = null;
}
