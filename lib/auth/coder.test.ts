// Sign in with Coder through Better Auth's generic OAuth against the Coder stand-in, on both databases: the
// authorization code flow with PKCE, Coder's roles read at every sign-in, and the users Coder's answer refuses.
import { afterAll, beforeAll, expect, it } from "vitest";
import { GET as authGet, POST as authPost } from "@/app/api/auth/[...all]/route";
import { GET as overview } from "@/app/api/v1/fleet/overview/route";
import { GET as me } from "@/app/api/v1/me/route";
import { resetConfigForTests } from "@/lib/config";
import { listAudit } from "@/lib/db/queries/audit";
import { describeEachDatabase, serveRoutesFrom } from "@/lib/db/testing";
import { coderOAuth2, type CoderOAuth2, type CoderUser } from "@/tests/support/coder-standin/oauth2";
import { startCoderStandIn, type CoderStandIn } from "@/tests/support/coder-standin/server";
import { createUser } from "./users";
import { BASE, cookieHeader, ctx, signIn, someAddress } from "./testing";
import { TEST_WHO } from "@/lib/db/testing";
import { signInErrorMessage } from "@/lib/validations/auth";

const app = {
  clientId: "dashboard",
  clientSecret: "coder-app-secret",
  redirectUri: `${BASE}/api/auth/oauth2/callback/coder`,
};
const site = (name: string) => ({ name, display_name: name, organization_id: "" });
const inOrg = (name: string) => ({ name, display_name: name, organization_id: "0a1b2c3d-0000-0000-0000-000000000001" });
const person = (username: string, status: CoderUser["status"], roles: CoderUser["roles"]): CoderUser => ({
  id: `id-${username}`,
  username,
  email: `${username}@example.com`,
  name: username[0].toUpperCase() + username.slice(1),
  status,
  roles,
});
const users = [
  person("olivia", "active", [site("owner")]),
  person("arthur", "active", [site("auditor"), inOrg("organization-admin")]),
  person("tess", "active", [inOrg("template-admin")]),
  person("mia", "active", []),
  person("sam", "suspended", [site("owner")]),
  person("dora", "dormant", [site("auditor")]),
];

let coder: CoderStandIn;
let oauth: CoderOAuth2;

beforeAll(async () => {
  oauth = coderOAuth2({ app, users });
  coder = await startCoderStandIn([oauth.handler]);
  // Read when Better Auth is made for each database (after this).
  Object.assign(process.env, {
    BETTER_AUTH_URL: BASE,
    CODER_URL: coder.url,
    CODER_OAUTH2_CLIENT_ID: app.clientId,
    CODER_OAUTH2_CLIENT_SECRET: app.clientSecret,
  });
  resetConfigForTests();
});
afterAll(async () => {
  for (const k of ["BETTER_AUTH_URL", "CODER_URL", "CODER_OAUTH2_CLIENT_ID", "CODER_OAUTH2_CLIENT_SECRET"]) {
    delete process.env[k];
  }
  resetConfigForTests();
  await coder?.close();
});

/** The browser's trip: the dashboard, Coder's consent as `username`, the callback. Where it ends, and the cookie. */
async function signInWithCoder(username: string) {
  const address = someAddress();
  const start = await authPost(
    new Request(`${BASE}/api/auth/sign-in/social`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: BASE, "x-forwarded-for": address },
      body: JSON.stringify({ provider: "coder", callbackURL: "/", errorCallbackURL: "/sign-in" }),
    }),
  );
  expect(start.status, await start.clone().text()).toBe(200);
  const authorize = new URL(((await start.json()) as { url: string }).url);
  oauth.signInAs(username);
  const consent = await fetch(authorize, { redirect: "manual" });
  expect(consent.status).toBe(302);
  const callback = new URL(consent.headers.get("location")!);
  const done = await authGet(
    new Request(callback, { headers: { cookie: cookieHeader(start), "x-forwarded-for": address } }),
  );
  expect(done.status).toBe(302);
  return { authorize, callback, location: new URL(done.headers.get("location")!, BASE), cookie: cookieHeader(done) };
}

async function roleOf(cookie: string) {
  const res = await me(new Request(`${BASE}/api/v1/me`, { headers: { cookie } }), ctx());
  return res.status === 200 ? ((await res.json()) as { role: string; label: string }) : null;
}

describeEachDatabase("sign in with Coder", (t) => {
  beforeAll(() => serveRoutesFrom(t.current));

  it("asks Coder for a code with PKCE S256, no openid, at the registered callback URI", async () => {
    const { authorize, callback } = await signInWithCoder("olivia");
    expect(authorize.origin + authorize.pathname).toBe(`${coder.url}/oauth2/authorize`);
    expect(authorize.searchParams.get("code_challenge_method")).toBe("S256");
    expect(authorize.searchParams.get("code_challenge")).toBeTruthy();
    expect(authorize.searchParams.get("scope") ?? "").not.toMatch(/openid/);
    expect(authorize.searchParams.get("redirect_uri")).toBe(app.redirectUri);
    expect(callback.pathname).toBe("/api/auth/oauth2/callback/coder");
    // The stand-in refuses a wrong or missing verifier: the exchange succeeding proves the right one was sent.
    expect(oauth.tokenRequests.at(-1)).toEqual({ grantType: "authorization_code" });
  });

  it("makes a Coder owner an admin, a site-wide auditor a viewer", async () => {
    const owner = await signInWithCoder("olivia");
    expect(owner.location.pathname).toBe("/");
    expect(await roleOf(owner.cookie)).toMatchObject({ role: "admin", label: "olivia@example.com" });
    const auditor = await signInWithCoder("arthur");
    expect(await roleOf(auditor.cookie)).toMatchObject({ role: "viewer", label: "arthur@example.com" });
  });

  it("makes every other active user a member of their own workspaces (an organization's role does not count)", async () => {
    for (const username of ["tess", "mia"]) {
      const { location, cookie } = await signInWithCoder(username);
      expect(location.pathname).toBe("/");
      expect(await roleOf(cookie)).toMatchObject({
        role: "member",
        label: `${username}@example.com`,
        scope: { kind: "owner", owner: username },
      });
      // The fleet's pages are a viewer's.
      const fleet = await overview(new Request(`${BASE}/api/v1/fleet/overview`, { headers: { cookie } }), ctx());
      expect(fleet.status).toBe(403);
    }
  });

  it("refuses suspended and dormant Coder users", async () => {
    const suspended = await signInWithCoder("sam");
    expect(suspended.location.pathname).toBe("/sign-in");
    // Coder itself refuses a suspended user's token: the sign-in page explains the provider's refusal.
    const error = suspended.location.searchParams.get("error");
    expect(signInErrorMessage(error, null)).toMatch(/suspended Coder account/);
    expect(await roleOf(suspended.cookie)).toBeNull();
    const dormant = await signInWithCoder("dora");
    expect(dormant.location.pathname).toBe("/sign-in");
    expect(dormant.location.searchParams.get("error_description") ?? "").toMatch(/dormant/);
    expect(await roleOf(dormant.cookie)).toBeNull();
  });

  it("reads the role again at every sign-in", async () => {
    const olivia = users.find((u) => u.username === "olivia")!;
    olivia.roles = [site("template-admin")];
    try {
      const { cookie } = await signInWithCoder("olivia");
      expect(await roleOf(cookie)).toMatchObject({ role: "viewer" });
    } finally {
      olivia.roles = [site("owner")];
    }
    const again = await signInWithCoder("olivia");
    expect(await roleOf(again.cookie)).toMatchObject({ role: "admin" });
    const audit = await listAudit(t.current.db, { action: "auth.sign_in" }, { limit: 50 });
    expect(audit.entries.some((e) => (e.details as { method?: string } | null)?.method === "coder")).toBe(true);
  });

  it("follows a member's Coder username when it changes, and a member made an owner", async () => {
    const mia = users.find((u) => u.username === "mia")!;
    // The stand-in finds the user it signs in by the name it was made with; Coder's answer carries the new one.
    mia.username = "mia-renamed";
    try {
      const renamed = await signInWithCoder("mia");
      expect(await roleOf(renamed.cookie)).toMatchObject({ role: "member", scope: { owner: "mia-renamed" } });
      mia.roles = [site("owner")];
      const promoted = await signInWithCoder("mia");
      expect(await roleOf(promoted.cookie)).toMatchObject({ role: "admin", scope: { kind: "fleet" } });
    } finally {
      mia.username = "mia";
      mia.roles = [];
    }
  });

  it("keeps password sign-in working beside it", async () => {
    await createUser(t.current.db, { email: "pw@example.com", password: "a-password-123", role: "viewer" }, TEST_WHO);
    expect(await roleOf(await signIn("pw@example.com", "a-password-123"))).toMatchObject({ role: "viewer" });
  });
});
