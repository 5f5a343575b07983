// Sign in with Coder on the Coder releases people run, against the stand-in, on both databases: a release of early
// 2025 (no Basic client authentication, which came in February 2026; no scopes_supported; no Bearer tokens; no
// revocation route) signs in with the secret in the form and no scope, and a provider turned on after the dashboard
// started is found on a later sign-in, without a restart.
import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, expect, it, vi } from "vitest";
import { accounts } from "@/lib/db/schema";
import { describeEachDatabase, serveRoutesFrom } from "@/tests/support/db";
import { coderOAuth2, type CoderOAuth2 } from "@/tests/support/coder-standin/oauth2";
import { CURRENT_RELEASE, EARLY_2025 } from "@/tests/support/coder-standin/release";
import { startCoderStandIn, type CoderStandIn } from "@/tests/support/coder-standin/server";
import { BASE } from "@/tests/support/auth";
import { roleOf, signInWithCoder, startCoderSignIn } from "@/tests/support/coder-auth";
import { unpointSignInAtCoder, pointSignInAtCoder } from "@/tests/support/coder-sign-in-env";
import { resetCoderDiscoveryForTests } from "./coder-discovery";

const app = {
  clientId: "9d2e4c1a-7b3f-4a85-b6e0-1f2a3b4c5d6e",
  clientSecret: "coder-app-secret-2",
  redirectUri: `${BASE}/api/auth/oauth2/callback/coder`,
};

let coder: CoderStandIn;
let oauth: CoderOAuth2;

beforeAll(async () => {
  oauth = coderOAuth2({
    app,
    users: [
      {
        id: "id-olivia",
        username: "olivia",
        email: "olivia@example.com",
        name: "Olivia",
        status: "active",
        roles: [{ name: "owner", display_name: "Owner", organization_id: "" }],
      },
    ],
  });
  coder = await startCoderStandIn([oauth.handler]);
  pointSignInAtCoder(coder.url, app);
});
afterAll(async () => {
  unpointSignInAtCoder();
  await coder?.close();
});
afterEach(() => vi.useRealTimers());

describeEachDatabase("sign in with Coder, a release of early 2025", (t) => {
  beforeAll(() => {
    serveRoutesFrom(t.current);
    oauth.setRelease(EARLY_2025);
    oauth.setProviderEnabled(true);
    resetCoderDiscoveryForTests();
  });

  it("refuses Basic client authentication as that release does", async () => {
    const res = await fetch(`${coder.url}/oauth2/tokens`, {
      method: "POST",
      headers: { authorization: `Basic ${Buffer.from(`${app.clientId}:${app.clientSecret}`).toString("base64")}` },
      body: new URLSearchParams({ grant_type: "authorization_code", code: "x", redirect_uri: app.redirectUri }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: "invalid_request", error_description: "Missing client_id parameter" });
  });

  it("signs in with the secret in the form, asks no scope, and completes though the token cannot be revoked", async () => {
    const { authorize, location, cookie } = await signInWithCoder(oauth, "olivia");
    expect(authorize.searchParams.has("scope")).toBe(false);
    expect(oauth.tokenRequests.at(-1)).toMatchObject({ grantType: "authorization_code", clientAuth: "post" });
    expect(location.pathname).toBe("/");
    expect(await roleOf(cookie)).toMatchObject({ role: "admin", label: "olivia@example.com" });
    // No /oauth2/revoke on that release: the token lives on at Coder until it expires, but not here.
    const rows = await t.current.db.select().from(accounts).where(eq(accounts.providerId, "coder"));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ accessToken: null, refreshToken: null, idToken: null });
  });
});

describeEachDatabase("sign in with Coder, the provider turned on later", (t) => {
  beforeAll(() => {
    serveRoutesFrom(t.current);
    oauth.setRelease(CURRENT_RELEASE);
    oauth.setProviderEnabled(false);
    resetCoderDiscoveryForTests();
  });

  it("is refused while Coder's provider is off, and works once it is on, without a restart", async () => {
    const off = await startCoderSignIn();
    expect(off.start.status).toBe(503);
    expect(await off.start.json()).toMatchObject({
      message: expect.stringMatching(/^Coder's OAuth2 provider does not answer yet/),
    });
    oauth.setProviderEnabled(true);
    // Asked again no sooner than the backoff says (at most 30 s): a minute later the provider is found.
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 60_000);
    const { location, cookie } = await signInWithCoder(oauth, "olivia");
    expect(location.pathname).toBe("/");
    expect(await roleOf(cookie)).toMatchObject({ role: "admin" });
  });
});
