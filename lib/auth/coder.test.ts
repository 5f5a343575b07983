// Sign in with Coder through Better Auth's generic OAuth against the Coder stand-in, on both databases: the
// authorization code flow with PKCE and Coder's consent page, the client's secret in the form, user:read asked for,
// Coder's roles read at every sign-in, the token revoked once read and never stored, a dormant user signed in, a
// suspended one refused with the product's message, and an email alone never joining an existing account.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { GET as overview } from "@/app/api/v1/fleet/overview/route";
import { listAudit } from "@/lib/db/queries/audit";
import { accounts, users as userRows } from "@/lib/db/schema";
import { describeEachDatabase, serveRoutesFrom } from "@/tests/support/db";
import { coderOAuth2, type CoderOAuth2, type CoderUser } from "@/tests/support/coder-standin/oauth2";
import { startCoderStandIn, type CoderStandIn } from "@/tests/support/coder-standin/server";
import { createUser } from "@/lib/services/users";
import { BASE, ctx, signIn } from "@/tests/support/auth";
import { roleOf, signInWithCoder as trip } from "@/tests/support/coder-auth";
import { unpointSignInAtCoder, pointSignInAtCoder } from "@/tests/support/coder-sign-in-env";
import { resetCoderDiscoveryForTests } from "./coder-discovery";
import { TEST_WHO } from "@/tests/support/db";
import { signInErrorMessage } from "@/lib/validations/auth";

const app = {
  clientId: "3f0c2b8e-5d1a-4e7f-9a6b-2c4d8e1f0a93",
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
  // Her Coder address is the address of a password account here (a Coder user admin can set any address).
  { ...person("mallory", "active", [site("owner")]), email: "pat@example.com" },
];

let coder: CoderStandIn;
let oauth: CoderOAuth2;

beforeAll(async () => {
  resetCoderDiscoveryForTests();
  oauth = coderOAuth2({ app, users });
  coder = await startCoderStandIn([oauth.handler]);
  pointSignInAtCoder(coder.url, app);
});
afterAll(async () => {
  unpointSignInAtCoder();
  await coder?.close();
});

const signInWithCoder = (username: string) => trip(oauth, username);

describeEachDatabase("sign in with Coder", (t) => {
  beforeAll(() => serveRoutesFrom(t.current));

  it("asks Coder for a code with PKCE S256 and user:read, at the registered callback URI, the secret in the form", async () => {
    const { authorize, callback } = await signInWithCoder("olivia");
    expect(authorize.origin + authorize.pathname).toBe(`${coder.url}/oauth2/authorize`);
    expect(authorize.searchParams.get("code_challenge_method")).toBe("S256");
    expect(authorize.searchParams.get("code_challenge")).toBeTruthy();
    // Coder's discovery document names user:read: the narrowest scope that reads /users/me, not coder:all.
    expect(authorize.searchParams.get("scope")).toBe("user:read");
    expect(authorize.searchParams.get("redirect_uri")).toBe(app.redirectUri);
    expect(callback.pathname).toBe("/api/auth/oauth2/callback/coder");
    // The stand-in refuses a wrong or missing verifier and any unknown parameter: the exchange succeeding proves
    // the right ones were sent, with client_secret_post (what every release accepts).
    expect(oauth.tokenRequests.at(-1)).toEqual({
      grantType: "authorization_code",
      clientAuth: "post",
      scope: "user:read",
    });
  });

  it("revokes Coder's token once the user is read, and keeps no Coder token in the database", async () => {
    await signInWithCoder("olivia");
    await signInWithCoder("arthur");
    expect(oauth.liveAccessTokens()).toEqual([]);
    const rows = await t.current.db.select().from(accounts).where(eq(accounts.providerId, "coder"));
    expect(rows.length).toBeGreaterThanOrEqual(2);
    for (const r of rows) {
      expect(r).toMatchObject({ accessToken: null, refreshToken: null, idToken: null });
      expect(r.accountId).toMatch(/^id-/);
    }
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

  it("signs in a dormant Coder user (Coder makes them active), and refuses a suspended one with its own message", async () => {
    const dormant = await signInWithCoder("dora");
    expect(dormant.location.pathname).toBe("/");
    expect(await roleOf(dormant.cookie)).toMatchObject({ role: "viewer", label: "dora@example.com" });
    const suspended = await signInWithCoder("sam");
    expect(suspended.location.pathname).toBe("/sign-in");
    // Coder itself refuses a suspended user's token: the sign-in page says so in the product's words.
    const q = suspended.location.searchParams;
    expect(signInErrorMessage(q.get("error"), q.get("error_description"))).toBe(
      "This is a suspended Coder account: ask a Coder admin to reactivate it, then sign in again.",
    );
    expect(await roleOf(suspended.cookie)).toBeNull();
    expect(oauth.liveAccessTokens()).toEqual([]);
  });

  it("never joins a Coder sign-in to an existing account by its email alone", async () => {
    await createUser(t.current.db, { email: "pat@example.com", password: "pat-password-123", role: "admin" }, TEST_WHO);
    const mallory = await signInWithCoder("mallory");
    expect(mallory.location.pathname).toBe("/sign-in");
    const q = mallory.location.searchParams;
    expect(q.get("error")).toBe("account_not_linked");
    expect(signInErrorMessage(q.get("error"), q.get("error_description"))).toMatch(/already exists here/);
    expect(await roleOf(mallory.cookie)).toBeNull();
    const [pat] = await t.current.db.select().from(userRows).where(eq(userRows.email, "pat@example.com"));
    const linked = await t.current.db.select().from(accounts).where(eq(accounts.userId, pat.id));
    expect(linked.map((a) => a.providerId)).toEqual(["credential"]);
    expect(await roleOf(await signIn("pat@example.com", "pat-password-123"))).toMatchObject({ role: "admin" });
  });

  it("joins a Coder sign-in to its account by the Coder user id, whatever the address", async () => {
    const arthur = users.find((u) => u.username === "arthur")!;
    const first = await signInWithCoder("arthur");
    const before = await roleOf(first.cookie);
    arthur.email = "arthur.new@example.com";
    try {
      const again = await signInWithCoder("arthur");
      expect(await roleOf(again.cookie)).toMatchObject({ role: before!.role, label: "arthur.new@example.com" });
      const rows = await t.current.db.select().from(accounts).where(eq(accounts.accountId, arthur.id));
      expect(rows).toHaveLength(1);
    } finally {
      arthur.email = "arthur@example.com";
    }
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
