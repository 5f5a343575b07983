// The Coder stand-in's OAuth2 provider answers as Coder's documentation says: the tests of the sign-in with Coder
// rely on it refusing what Coder refuses (a wrong PKCE verifier, scope openid, a foreign redirect URI, a
// suspended user at /api/v2/users/me).
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { coderOAuth2, type CoderOAuth2 } from "../support/coder-standin/oauth2";
import { startCoderStandIn, type CoderStandIn } from "../support/coder-standin/server";

const app = {
  clientId: "client-1",
  clientSecret: "secret-1",
  redirectUri: "http://app.test/api/auth/oauth2/callback/coder",
};
const role = (name: string) => ({ name, display_name: name, organization_id: "" });
const users = [
  {
    id: "u-1",
    username: "alice",
    email: "alice@example.com",
    name: "Alice",
    status: "active" as const,
    roles: [role("owner")],
  },
  { id: "u-2", username: "sam", email: "sam@example.com", name: "Sam", status: "suspended" as const, roles: [] },
];
const verifier = "v".repeat(50);
const challenge = createHash("sha256").update(verifier).digest("base64url");
const basic = `Basic ${Buffer.from(`${app.clientId}:${app.clientSecret}`).toString("base64")}`;

let coder: CoderStandIn;
let oauth: CoderOAuth2;

beforeAll(async () => {
  oauth = coderOAuth2({ app, users });
  coder = await startCoderStandIn([oauth.handler]);
});
afterAll(() => coder?.close());

function authorizeUrl(params: Record<string, string> = {}) {
  const url = new URL(`${coder.url}/oauth2/authorize`);
  const all = {
    client_id: app.clientId,
    response_type: "code",
    redirect_uri: app.redirectUri,
    state: "st",
    code_challenge: challenge,
    code_challenge_method: "S256",
    ...params,
  };
  for (const [k, v] of Object.entries(all)) url.searchParams.set(k, v);
  return url;
}

/** Consents as `username`; the redirect back to the app. */
async function consent(username: string, params: Record<string, string> = {}) {
  oauth.signInAs(username);
  const res = await fetch(authorizeUrl(params), { redirect: "manual" });
  return { status: res.status, location: res.headers.get("location") ? new URL(res.headers.get("location")!) : null };
}

async function exchange(
  code: string,
  extra: Record<string, string> = {},
  headers: Record<string, string> = { authorization: basic },
) {
  const body = new URLSearchParams({ grant_type: "authorization_code", code, redirect_uri: app.redirectUri, ...extra });
  const res = await fetch(`${coder.url}/oauth2/tokens`, { method: "POST", headers, body });
  return { status: res.status, body: (await res.json()) as Record<string, string> };
}

describe("Coder stand-in: OAuth2 provider", () => {
  it("publishes RFC 8414 metadata without OpenID Connect", async () => {
    const meta = await (await fetch(`${coder.url}/.well-known/oauth-authorization-server`)).json();
    expect(meta).toMatchObject({
      issuer: coder.url,
      authorization_endpoint: `${coder.url}/oauth2/authorize`,
      token_endpoint: `${coder.url}/oauth2/tokens`,
      revocation_endpoint: `${coder.url}/oauth2/revoke`,
      grant_types_supported: ["authorization_code", "refresh_token"],
      code_challenge_methods_supported: ["S256"],
      token_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post"],
    });
    expect(meta.userinfo_endpoint).toBeUndefined();
    expect((await fetch(`${coder.url}/.well-known/openid-configuration`)).status).toBe(404);
  });

  it("runs the code flow with PKCE, client_secret_basic, then users/me by Bearer and by Coder-Session-Token", async () => {
    const { status, location } = await consent("alice");
    expect(status).toBe(302);
    expect(location!.searchParams.get("state")).toBe("st");
    const token = await exchange(location!.searchParams.get("code")!, { code_verifier: verifier });
    expect(token.status).toBe(200);
    expect(token.body.token_type).toBe("Bearer");
    const me = await fetch(`${coder.url}/api/v2/users/me`, {
      headers: { authorization: `Bearer ${token.body.access_token}` },
    });
    expect(await me.json()).toMatchObject({ id: "u-1", username: "alice", status: "active", roles: [role("owner")] });
    const bySession = await fetch(`${coder.url}/api/v2/users/me`, {
      headers: { "coder-session-token": token.body.access_token },
    });
    expect(bySession.status).toBe(200);
  });

  it("accepts client_secret_post and refreshes with rotation", async () => {
    const { location } = await consent("alice");
    const token = await exchange(
      location!.searchParams.get("code")!,
      { code_verifier: verifier, client_id: app.clientId, client_secret: app.clientSecret },
      {},
    );
    expect(token.status).toBe(200);
    const refresh = async () =>
      fetch(`${coder.url}/oauth2/tokens`, {
        method: "POST",
        headers: { authorization: basic },
        body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: token.body.refresh_token }),
      });
    expect((await refresh()).status).toBe(200);
    expect(await (await refresh()).json()).toMatchObject({ error: "invalid_grant" });
  });

  it("refuses a missing or wrong PKCE verifier with invalid_grant, and a code twice", async () => {
    const attempts: Record<string, string>[] = [{}, { code_verifier: "w".repeat(50) }];
    for (const extra of attempts) {
      const { location } = await consent("alice");
      const token = await exchange(location!.searchParams.get("code")!, extra);
      expect(token).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
    }
    const { location } = await consent("alice");
    const code = location!.searchParams.get("code")!;
    expect((await exchange(code, { code_verifier: verifier })).status).toBe(200);
    expect((await exchange(code, { code_verifier: verifier })).body.error).toBe("invalid_grant");
  });

  it("refuses an authorization request without PKCE S256 or with scope openid, back at the redirect URI", async () => {
    const cases: [Record<string, string>, string][] = [
      [{ code_challenge: "" }, "invalid_request"],
      [{ code_challenge_method: "plain" }, "invalid_request"],
      [{ scope: "openid profile" }, "invalid_scope"],
    ];
    for (const [params, error] of cases) {
      const { status, location } = await consent("alice", params);
      expect(status).toBe(302);
      expect(location!.searchParams.get("error")).toBe(error);
      expect(location!.searchParams.get("code")).toBeNull();
    }
  });

  it("never redirects to another redirect URI, nor for an unknown client", async () => {
    expect((await consent("alice", { redirect_uri: "http://evil.test/cb" })).status).toBe(400);
    expect((await consent("alice", { client_id: "other" })).status).toBe(400);
  });

  it("refuses a wrong client secret with invalid_client", async () => {
    const { location } = await consent("alice");
    const wrong = `Basic ${Buffer.from(`${app.clientId}:nope`).toString("base64")}`;
    const token = await exchange(
      location!.searchParams.get("code")!,
      { code_verifier: verifier },
      { authorization: wrong },
    );
    expect(token).toMatchObject({ status: 401, body: { error: "invalid_client" } });
  });

  it("refuses a suspended user at users/me after consent, and a revoked token", async () => {
    const { location } = await consent("sam");
    const token = await exchange(location!.searchParams.get("code")!, { code_verifier: verifier });
    expect(token.status).toBe(200);
    const me = await fetch(`${coder.url}/api/v2/users/me`, {
      headers: { authorization: `Bearer ${token.body.access_token}` },
    });
    expect(me.status).toBe(401);
    expect((await me.json()).message).toMatch(/suspended/);

    const alice = await consent("alice");
    const t = await exchange(alice.location!.searchParams.get("code")!, { code_verifier: verifier });
    const revoke = await fetch(`${coder.url}/oauth2/revoke`, {
      method: "POST",
      headers: { authorization: basic },
      body: new URLSearchParams({ token: t.body.access_token }),
    });
    expect(revoke.status).toBe(200);
    const after = await fetch(`${coder.url}/api/v2/users/me`, {
      headers: { authorization: `Bearer ${t.body.access_token}` },
    });
    expect(after.status).toBe(401);
  });
});
