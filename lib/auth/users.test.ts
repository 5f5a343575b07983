// Sign-in, users and roles, API tokens and the safety rules, through the route handlers, on both databases.
import { beforeAll, expect, it } from "vitest";
import { GET as me } from "@/app/api/v1/me/route";
import { PUT as putRules } from "@/app/api/v1/findings/rules/route";
import { GET as overview } from "@/app/api/v1/fleet/overview/route";
import { GET as workspaces } from "@/app/api/v1/workspaces/route";
import { POST as setup } from "@/app/api/v1/setup/route";
import { DELETE as revokeToken } from "@/app/api/v1/tokens/[id]/route";
import { GET as listTokens, POST as createToken } from "@/app/api/v1/tokens/route";
import { PATCH as patchUser } from "@/app/api/v1/users/[id]/route";
import { GET as listUsers, POST as createUser } from "@/app/api/v1/users/route";
import { POST as authPost } from "@/app/api/auth/[...all]/route";
import { resetConfigForTests } from "@/lib/config";
import { describeEachDatabase, serveRoutesFrom, TEST_WHO } from "@/tests/support/db";
import { addressedOrigins } from "./client-ip";
import { BASE, cookieHeader, ctx, postSignIn, signIn, someAddress } from "@/tests/support/auth";
import { needsSetup } from "./users";
import { bootstrapAdminFromEnv } from "@/lib/services/users";
import { updateUser } from "@/lib/services/user-access";

function req(path: string, init: { method?: string; headers?: Record<string, string>; body?: unknown } = {}) {
  const headers: Record<string, string> = {
    ...(init.body !== undefined ? { "content-type": "application/json" } : {}),
    ...init.headers,
  };
  return new Request(`${BASE}${path}`, {
    method: init.method ?? "GET",
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
}

describeEachDatabase("users, roles and tokens", (t) => {
  const admin = { email: "first@example.com", password: "first-admin-password" };
  let adminCookie = "";
  const asAdmin = () => ({ cookie: adminCookie });

  beforeAll(async () => {
    serveRoutesFrom(t.current);
  });

  it("offers setup until the first admin exists, then refuses it for good", async () => {
    expect(await needsSetup(t.current.db)).toBe(true);
    expect(
      (await setup(req("/api/v1/setup", { method: "POST", body: { email: "x", password: "short" } }), ctx())).status,
    ).toBe(422);
    const res = await setup(req("/api/v1/setup", { method: "POST", body: admin }), ctx());
    expect(res.status).toBe(201);
    expect(JSON.stringify(await res.json())).not.toContain(admin.password);
    const again = await setup(
      req("/api/v1/setup", { method: "POST", body: { email: "second@example.com", password: "second-password" } }),
      ctx(),
    );
    expect(again.status).toBe(409);
    expect(await needsSetup(t.current.db)).toBe(false);
    process.env.ADMIN_EMAIL = "env-admin@example.com";
    process.env.ADMIN_PASSWORD = "env-admin-password";
    resetConfigForTests();
    try {
      expect(await bootstrapAdminFromEnv(t.current.db)).toBe("skipped");
    } finally {
      delete process.env.ADMIN_EMAIL;
      delete process.env.ADMIN_PASSWORD;
      resetConfigForTests();
    }
    adminCookie = await signIn(admin.email, admin.password);
    expect(await (await me(req("/api/v1/me", { headers: asAdmin() }), ctx())).json()).toMatchObject({
      role: "admin",
      label: admin.email,
    });
  });

  it("creates users, and role changes and disabling take effect on the very next request", async () => {
    const created = await createUser(
      req("/api/v1/users", {
        method: "POST",
        headers: asAdmin(),
        body: { email: "Val@Example.com", role: "viewer", password: "viewer-password" },
      }),
      ctx(),
    );
    expect(created.status).toBe(201);
    const { user } = await created.json();
    expect(user).toMatchObject({ email: "val@example.com", role: "viewer", disabled: false, methods: ["password"] });
    const viewerCookie = await signIn("val@example.com", "viewer-password");
    const asViewer = { cookie: viewerCookie };
    const rulesBody = { rules: [{ id: "volume-filling", params: { days: 4 } }] };
    expect(
      (await putRules(req("/api/v1/findings/rules", { method: "PUT", headers: asViewer, body: rulesBody }), ctx()))
        .status,
    ).toBe(403);

    const promote = await patchUser(
      req(`/api/v1/users/${user.id}`, { method: "PATCH", headers: asAdmin(), body: { role: "admin" } }),
      ctx({ id: user.id }),
    );
    expect(promote.status).toBe(200);
    expect(
      (await putRules(req("/api/v1/findings/rules", { method: "PUT", headers: asViewer, body: rulesBody }), ctx()))
        .status,
    ).toBe(200);
    await patchUser(
      req(`/api/v1/users/${user.id}`, { method: "PATCH", headers: asAdmin(), body: { role: "viewer" } }),
      ctx({ id: user.id }),
    );
    expect(
      (await putRules(req("/api/v1/findings/rules", { method: "PUT", headers: asViewer, body: rulesBody }), ctx()))
        .status,
    ).toBe(403);

    const disable = await patchUser(
      req(`/api/v1/users/${user.id}`, { method: "PATCH", headers: asAdmin(), body: { disabled: true } }),
      ctx({ id: user.id }),
    );
    expect((await disable.json()).user.disabled).toBe(true);
    expect((await overview(req("/api/v1/fleet/overview", { headers: asViewer }), ctx())).status).toBe(401);
    const refused = await postSignIn("val@example.com", "viewer-password");
    expect(refused.status).toBe(403);
    expect(await refused.text()).toMatch(/disabled/);
    await patchUser(
      req(`/api/v1/users/${user.id}`, { method: "PATCH", headers: asAdmin(), body: { disabled: false } }),
      ctx({ id: user.id }),
    );
    await signIn("val@example.com", "viewer-password");
  });

  it("never demotes or disables the last active admin, and nobody changes their own role", async () => {
    const users = (await (await listUsers(req("/api/v1/users", { headers: asAdmin() }), ctx())).json()).users as {
      id: string;
      email: string;
      role: string;
    }[];
    const first = users.find((u) => u.email === admin.email)!;
    for (const body of [{ role: "viewer" as const }, { disabled: true }]) {
      const res = await patchUser(
        req(`/api/v1/users/${first.id}`, { method: "PATCH", headers: asAdmin(), body }),
        ctx({ id: first.id }),
      );
      expect(res.status).toBe(403);
      expect(await res.text()).toMatch(/their own role/);
      // Nor can the system (the one caller that is nobody) take the last admin away.
      await expect(updateUser(t.current.db, first.id, body, TEST_WHO, null)).rejects.toThrow(/last active admin/);
    }
    const second = await (
      await createUser(
        req("/api/v1/users", {
          method: "POST",
          headers: asAdmin(),
          body: { email: "second-admin@example.com", role: "admin" },
        }),
        ctx(),
      )
    ).json();
    expect(second.user.methods).toEqual([]);
    const demote = await updateUser(t.current.db, first.id, { role: "viewer" }, TEST_WHO, second.user.id);
    expect(demote.role).toBe("viewer");
    // The first admin is a viewer now, at once; the other admin (an invitation, no password) is the last one.
    expect((await listUsers(req("/api/v1/users", { headers: asAdmin() }), ctx())).status).toBe(403);
  });

  it("creates, lists and revokes API tokens; expiry and revocation hold at once", async () => {
    const adminCookie2 = adminCookie;
    // The only admin left has no password: promote the first user back with an admin token (as the CLI makes).
    const { createApiToken } = await import("@/lib/services/api-tokens");
    const { ownerForToken } = await import("./token-owner");
    const boot = await createApiToken(
      t.current.db,
      await ownerForToken(t.current.db),
      { name: "boot", role: "admin" },
      TEST_WHO,
    );
    const asToken = { authorization: `Bearer ${boot.token}` };
    const users = (await (await listUsers(req("/api/v1/users", { headers: asToken }), ctx())).json()).users as {
      id: string;
      email: string;
    }[];
    const first = users.find((u) => u.email === admin.email)!;
    expect(
      (
        await patchUser(
          req(`/api/v1/users/${first.id}`, { method: "PATCH", headers: asToken, body: { role: "admin" } }),
          ctx({ id: first.id }),
        )
      ).status,
    ).toBe(200);

    const made = await createToken(
      req("/api/v1/tokens", {
        method: "POST",
        headers: { cookie: adminCookie2 },
        body: { name: "nightly", role: "viewer", expiresInDays: 7 },
      }),
      ctx(),
    );
    expect(made.status).toBe(201);
    const { token, info } = await made.json();
    expect(token).toMatch(/^sdt_/);
    expect(info).toMatchObject({ name: "nightly", role: "viewer", revoked: false, createdBy: admin.email });
    expect(new Date(info.expiresAt).getTime()).toBeGreaterThan(Date.now() + 6 * 86_400_000);
    const list = await (await listTokens(req("/api/v1/tokens", { headers: { cookie: adminCookie2 } }), ctx())).text();
    expect(list).toContain("nightly");
    expect(list).not.toContain(token);

    const bearer = { authorization: `Bearer ${token}` };
    expect((await workspaces(req("/api/v1/workspaces", { headers: bearer }), ctx())).status).toBe(200);
    expect(
      (await putRules(req("/api/v1/findings/rules", { method: "PUT", headers: bearer, body: { rules: [] } }), ctx()))
        .status,
    ).toBe(403);
    const revoked = await revokeToken(
      req(`/api/v1/tokens/${info.id}`, { method: "DELETE", headers: { cookie: adminCookie2 } }),
      ctx({ id: info.id }),
    );
    expect((await revoked.json()).token.revoked).toBe(true);
    expect((await workspaces(req("/api/v1/workspaces", { headers: bearer }), ctx())).status).toBe(401);
    expect(
      (
        await createToken(
          req("/api/v1/tokens", {
            method: "POST",
            headers: { cookie: adminCookie2 },
            body: { name: "x", role: "owner" },
          }),
          ctx(),
        )
      ).status,
    ).toBe(422);
  });

  it("refuses cross-site mutations, and lets a bearer-only script through", async () => {
    const body = { rules: [{ id: "volume-filling", params: { days: 5 } }] };
    for (const headers of [
      { origin: "https://evil.example" },
      { "sec-fetch-site": "cross-site" },
      { "sec-fetch-site": "same-site" },
    ] as Record<string, string>[]) {
      const res = await putRules(
        req("/api/v1/findings/rules", { method: "PUT", headers: { cookie: adminCookie, ...headers }, body }),
        ctx(),
      );
      expect(res.status).toBe(403);
    }
    expect(
      (
        await putRules(
          req("/api/v1/findings/rules", {
            method: "PUT",
            headers: { cookie: adminCookie, origin: BASE, "sec-fetch-site": "same-origin" },
            body,
          }),
          ctx(),
        )
      ).status,
    ).toBe(200);
    const { createApiToken } = await import("@/lib/services/api-tokens");
    const { ownerForToken } = await import("./token-owner");
    const script = await createApiToken(
      t.current.db,
      await ownerForToken(t.current.db),
      { name: "ci", role: "admin" },
      TEST_WHO,
    );
    const res = await putRules(
      req("/api/v1/findings/rules", {
        method: "PUT",
        headers: { authorization: `Bearer ${script.token}`, origin: "https://ci.example" },
        body,
      }),
      ctx(),
    );
    expect(res.status).toBe(200);
  });

  // Per account, and per account and address: lib/auth/sign-in-limit.test.ts.
  it("limits failed sign-ins per address", async () => {
    const address = someAddress();
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++)
      statuses.push(
        (await postSignIn(`nobody-${i}@example.com`, "wrong-password", { "x-forwarded-for": address })).status,
      );
    expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
    expect(statuses[10]).toBe(429);
  });

  it("sets httpOnly, SameSite=Lax session cookies and audits sign-in and sign-out", async () => {
    const res = await postSignIn("val@example.com", "viewer-password");
    const setCookie = res.headers.getSetCookie().join("\n");
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    const out = await authPost(
      new Request(`${BASE}/api/auth/sign-out`, {
        method: "POST",
        headers: { cookie: cookieHeader(res), origin: BASE },
      }),
    );
    expect(out.status).toBe(200);
    expect((await me(req("/api/v1/me", { headers: { cookie: cookieHeader(res) } }), ctx())).status).toBe(401);
    const { listAudit } = await import("@/lib/db/queries/audit");
    const actions = (await listAudit(t.current.db, { actor: "val@example.com" }, { limit: 100 })).entries.map(
      (e) => e.action,
    );
    expect(actions).toEqual(expect.arrayContaining(["auth.sign_in", "auth.sign_out"]));
    const failed = (await listAudit(t.current.db, { action: "auth.sign_in_failed" }, { limit: 100 })).entries;
    expect(failed.length).toBeGreaterThan(5);
    expect(failed[0].ip).toMatch(/^198\.51\.100\./);
  });

  it("signs in at whatever host the browser addressed, and nowhere else, without a configured URL", async () => {
    // Next hands route handlers its own listening address as request.url; the browser's host is in Host.
    const at = (host: string, origin: string) =>
      authPost(
        new Request("http://localhost:3000/api/auth/sign-in/email", {
          method: "POST",
          headers: { "content-type": "application/json", host, origin, "x-forwarded-for": someAddress() },
          body: JSON.stringify({ email: "val@example.com", password: "viewer-password" }),
        }),
      );
    const ok = await at("storage.example.com", "https://storage.example.com");
    expect(ok.status, await ok.clone().text()).toBe(200);
    // Without a configured https URL the cookie cannot know the scheme: not Secure, or plain http would lose it.
    expect(ok.headers.getSetCookie().join("\n")).not.toMatch(/;\s*Secure/i);
    expect((await at("10.1.2.3:3000", "http://10.1.2.3:3000")).status).toBe(200);
    // Better Auth skips its own origin check under NODE_ENV=test, so the refusal of a foreign Origin is
    // asserted on what it is given to trust (and against the built app in the browser tests).
    const trusted = addressedOrigins(
      new Request("http://localhost:3000/x", {
        headers: { host: "storage.example.com", "x-forwarded-host": "evil.example" },
      }),
    );
    expect(trusted).toEqual(["http://storage.example.com", "https://storage.example.com"]);
  });

  it("keeps Better Auth's own user, role and key endpoints off the HTTP mount", async () => {
    for (const path of [
      "/admin/set-role",
      "/admin/create-user",
      "/admin/ban-user",
      "/api-key/create",
      "/sign-up/email",
      "/update-user",
    ]) {
      const res = await authPost(
        new Request(`${BASE}/api/auth${path}`, {
          method: "POST",
          headers: { cookie: adminCookie, origin: BASE, "content-type": "application/json" },
          body: "{}",
        }),
      );
      expect(res.status, path).toBe(404);
    }
  });
});
