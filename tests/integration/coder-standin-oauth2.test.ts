// The Coder stand-in's OAuth2 provider answers as coder/coder's source does (coderd/oauth2provider, coderd/httpmw):
// the tests of Sign in with Coder rely on it refusing what Coder refuses (a wrong PKCE verifier, an unknown
// parameter, scope openid, a foreign redirect URI, a code without the consent page's POST, Basic client
// authentication on a release before it, a suspended user at /api/v2/users/me) and on its provider-off mode.
import { createHash } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { coderOAuth2, consent as allow, type CoderOAuth2 } from "../support/coder-standin/oauth2";
import { CURRENT_RELEASE, EARLY_2025 } from "../support/coder-standin/release";
import { startCoderStandIn, type CoderStandIn } from "../support/coder-standin/server";

const app = {
  clientId: "0b8a7c6d-5e4f-4a3b-9c2d-1e0f9a8b7c6d",
  clientSecret: "secret-1",
  redirectUri: "http://app.test/api/auth/oauth2/callback/coder",
};
const role = (name: string) => ({ name, display_name: name, organization_id: "" });
const person = (id: string, username: string, status: "active" | "suspended" | "dormant") => ({
  id,
  username,
  email: `${username}@example.com`,
  name: username,
  status,
  roles: [role("owner")],
});
const users = [person("u-1", "alice", "active"), person("u-2", "sam", "suspended"), person("u-3", "dora", "dormant")];
const verifier = "v".repeat(50);
const challenge = createHash("sha256").update(verifier).digest("base64url");
const basic = `Basic ${Buffer.from(`${app.clientId}:${app.clientSecret}`).toString("base64")}`;
const post = { client_id: app.clientId, client_secret: app.clientSecret };

let coder: CoderStandIn;
let oauth: CoderOAuth2;

beforeAll(async () => {
  oauth = coderOAuth2({ app, users });
  coder = await startCoderStandIn([oauth.handler]);
});
afterAll(() => coder?.close());
afterEach(() => {
  oauth.setRelease(CURRENT_RELEASE);
  oauth.setProviderEnabled(true);
});

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

/** Opens Coder's consent page as `username` and presses Allow; the redirect back to the app. */
async function consent(username: string, params: Record<string, string> = {}) {
  oauth.signInAs(username);
  const res = await allow(authorizeUrl(params));
  return { status: res.status, location: res.headers.get("location") ? new URL(res.headers.get("location")!) : null };
}

async function exchange(code: string, extra: Record<string, string> = {}, headers: Record<string, string> = {}) {
  const body = new URLSearchParams({
    grant_type: "authorization_code",
    code,
    redirect_uri: app.redirectUri,
    ...post,
    ...extra,
  });
  const res = await fetch(`${coder.url}/oauth2/tokens`, { method: "POST", headers, body });
  return { status: res.status, body: (await res.json()) as Record<string, string> };
}

const me = (token: string, how: "session" | "bearer" = "session") =>
  fetch(`${coder.url}/api/v2/users/me`, {
    headers: how === "session" ? { "coder-session-token": token } : { authorization: `Bearer ${token}` },
  });

describe("Coder stand-in: OAuth2 provider", () => {
  it("publishes RFC 8414 metadata without OpenID Connect, with scopes_supported only on releases that have it", async () => {
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
    expect(meta.scopes_supported).toContain("user:read");
    expect(meta.userinfo_endpoint).toBeUndefined();
    expect((await fetch(`${coder.url}/.well-known/openid-configuration`)).status).toBe(404);
    oauth.setRelease(EARLY_2025);
    const early = await (await fetch(`${coder.url}/.well-known/oauth-authorization-server`)).json();
    expect(early.scopes_supported).toBeUndefined();
    expect(early.token_endpoint_auth_methods_supported).toEqual(["client_secret_post"]);
  });

  it("shows a consent page, and gives a code only to its POST with the page's CSRF token", async () => {
    oauth.signInAs("alice");
    const page = await fetch(authorizeUrl(), { redirect: "manual" });
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/<button type="submit">Allow<\/button>/);
    const forged = await fetch(authorizeUrl(), { method: "POST", redirect: "manual", body: "csrf_token=guess" });
    expect(forged.status).toBe(400);
    const { status, location } = await consent("alice");
    expect(status).toBe(302);
    expect(location!.searchParams.get("state")).toBe("st");
    expect(location!.searchParams.get("code")).toMatch(/^coder_/);
  });

  it("runs the code flow with PKCE and client_secret_post, answers expiry, and reads users/me", async () => {
    const { location } = await consent("alice");
    const token = await exchange(location!.searchParams.get("code")!, { code_verifier: verifier });
    expect(token.status).toBe(200);
    expect(token.body).toMatchObject({ token_type: "Bearer", expires_in: 86400 });
    expect(Date.parse(token.body.expiry)).toBeGreaterThan(Date.now());
    expect(await (await me(token.body.access_token)).json()).toMatchObject({ id: "u-1", username: "alice" });
    expect((await me(token.body.access_token, "bearer")).status).toBe(200);
    // A release before Bearer reads only Coder-Session-Token.
    oauth.setRelease(EARLY_2025);
    expect((await me(token.body.access_token, "bearer")).status).toBe(401);
    expect((await me(token.body.access_token)).status).toBe(200);
  });

  it("takes Basic client authentication only on releases since February 2026", async () => {
    const { location } = await consent("alice");
    const code = location!.searchParams.get("code")!;
    const basicOnly = (c: string) =>
      fetch(`${coder.url}/oauth2/tokens`, {
        method: "POST",
        headers: { authorization: basic },
        body: new URLSearchParams({
          grant_type: "authorization_code",
          code: c,
          redirect_uri: app.redirectUri,
          code_verifier: verifier,
        }),
      });
    oauth.setRelease(EARLY_2025);
    const refused = await basicOnly(code);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({
      error: "invalid_request",
      error_description: "Missing client_id parameter",
    });
    oauth.setRelease(CURRENT_RELEASE);
    const again = await consent("alice");
    expect((await basicOnly(again.location!.searchParams.get("code")!)).status).toBe(200);
  });

  it("refuses unknown parameters at authorize and at the token endpoint", async () => {
    oauth.signInAs("alice");
    const page = await fetch(authorizeUrl({ prompt: "consent" }), { redirect: "manual" });
    expect(page.status).toBe(400);
    expect(await page.text()).toMatch(/Invalid Query Parameters.*prompt.*is not a valid query param/);
    const { location } = await consent("alice");
    const token = await exchange(location!.searchParams.get("code")!, { code_verifier: verifier, scope: "all" });
    expect(token).toMatchObject({ status: 400, body: { error: "invalid_request" } });
  });

  it("refreshes with rotation", async () => {
    const { location } = await consent("alice");
    const token = await exchange(location!.searchParams.get("code")!, { code_verifier: verifier });
    const refresh = async () =>
      fetch(`${coder.url}/oauth2/tokens`, {
        method: "POST",
        body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: token.body.refresh_token, ...post }),
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

  it("refuses PKCE other than S256 and an unknown scope back at the redirect URI, a missing challenge on a page", async () => {
    const cases: [Record<string, string>, string][] = [
      [{ code_challenge_method: "plain" }, "invalid_request"],
      [{ scope: "openid profile" }, "invalid_scope"],
      [{ scope: "workspace:delete-everything" }, "invalid_scope"],
    ];
    for (const [params, error] of cases) {
      const { status, location } = await consent("alice", params);
      expect(status).toBe(302);
      expect(location!.searchParams.get("error")).toBe(error);
      expect(location!.searchParams.get("code")).toBeNull();
    }
    expect((await consent("alice", { code_challenge: "" })).status).toBe(400);
  });

  it("never redirects to another redirect URI, nor for an unknown client", async () => {
    expect((await consent("alice", { redirect_uri: "http://evil.test/cb" })).status).toBe(400);
    expect((await consent("alice", { client_id: "other" })).status).toBe(401);
    expect((await consent("alice", { client_id: "" })).status).toBe(400);
  });

  it("refuses a wrong client secret with invalid_client", async () => {
    const { location } = await consent("alice");
    const token = await exchange(location!.searchParams.get("code")!, {
      code_verifier: verifier,
      client_secret: "nope",
    });
    expect(token).toMatchObject({ status: 401, body: { error: "invalid_client" } });
  });

  it("makes a dormant user active at users/me, refuses a suspended one and a revoked token", async () => {
    const dora = await consent("dora");
    const forDora = await exchange(dora.location!.searchParams.get("code")!, { code_verifier: verifier });
    expect(await (await me(forDora.body.access_token)).json()).toMatchObject({ username: "dora", status: "active" });

    const { location } = await consent("sam");
    const token = await exchange(location!.searchParams.get("code")!, { code_verifier: verifier });
    expect(token.status).toBe(200);
    const refused = await me(token.body.access_token);
    expect(refused.status).toBe(401);
    expect((await refused.json()).message).toMatch(/status = "suspended"/);

    const alice = await consent("alice");
    const t = await exchange(alice.location!.searchParams.get("code")!, { code_verifier: verifier });
    const revoke = await fetch(`${coder.url}/oauth2/revoke`, {
      method: "POST",
      body: new URLSearchParams({ token: t.body.access_token, ...post }),
    });
    expect(revoke.status).toBe(200);
    expect((await me(t.body.access_token)).status).toBe(401);
  });

  it("answers 404 Route not found under /oauth2 and for discovery while the provider is off", async () => {
    oauth.setProviderEnabled(false);
    for (const [method, path] of [
      ["GET", "/.well-known/oauth-authorization-server"],
      ["GET", "/oauth2/authorize"],
      ["POST", "/oauth2/tokens"],
      ["POST", "/oauth2/revoke"],
    ]) {
      const res = await fetch(`${coder.url}${path}`, { method });
      expect(res.status, path).toBe(404);
      expect(await res.json()).toEqual({ message: "Route not found." });
    }
  });
});
