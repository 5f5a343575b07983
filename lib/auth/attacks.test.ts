// Sign-in attacked, through Better Auth's mount on both databases: the per-address limit against other
// spellings of the sign-in path, rotated X-Forwarded-For entries and IPv6 spellings of one address; a
// disabled user's and a revoked token's very next request; cookies' flags behind a TLS proxy; a callback URL
// that leaves the site. (next=: lib/validations/auth.test.ts and tests/browser/security-headers.test.ts;
// a client-sent X-Forwarded-For without TRUST_PROXY: lib/auth/policy.test.ts and tests/browser/auth.test.ts.)
import { afterEach, beforeAll, expect, it, vi } from "vitest";
import { POST as authPost } from "@/app/api/auth/[...all]/route";
import { GET as me } from "@/app/api/v1/me/route";
import { DELETE as revokeToken } from "@/app/api/v1/tokens/[id]/route";
import { POST as createToken } from "@/app/api/v1/tokens/route";
import { PATCH as patchUser } from "@/app/api/v1/users/[id]/route";
import { resetConfigForTests } from "@/lib/config";
import { describeEachDatabase, serveRoutesFrom } from "@/tests/support/db";
import { BASE, ctx, makePrincipals, signIn, type Principals } from "@/tests/support/auth";

/** A failed sign-in (an unknown account) at `path`, as `forwardedFor` (the header a trusted proxy appends). */
const attempt = (path: string, forwardedFor: string, i: number) =>
  authPost(
    new Request(`${BASE}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: BASE, "x-forwarded-for": forwardedFor },
      body: JSON.stringify({ email: `nobody-${i}-${Math.random()}@example.com`, password: "wrong-password" }),
    }),
  );

/** Sets a variable for one test; the configuration is read again (it is kept once read). */
const stubEnv = (name: string, value: string) => {
  vi.stubEnv(name, value);
  resetConfigForTests();
};
afterEach(() => {
  vi.unstubAllEnvs();
  resetConfigForTests();
});

describeEachDatabase("sign-in attacked", (t) => {
  let p: Principals;
  let net = 0;
  /** A /64 of its own per test (2001:db8:<n>::/64): the limiter counts IPv6 clients by their /64. */
  const freshNet = () => `2001:db8:${(++net).toString(16)}:`;

  beforeAll(async () => {
    serveRoutesFrom(t.current);
    p = await makePrincipals(t.current, "attacks");
  });

  it("counts every spelling of the sign-in path against one limit: the others are not endpoints", async () => {
    const ip = "203.0.113.50";
    const first = [];
    for (let i = 0; i < 10; i++) first.push((await attempt("/api/auth/sign-in/email", ip, i)).status);
    expect(first.every((s) => s === 401)).toBe(true);
    const spellings = [
      "/api/auth/sign-in/email",
      "/api/auth/sign-in/email?again=1",
      "//api/auth/sign-in/email",
      "/api/auth//sign-in/email",
      "/api/auth/sign-in//email",
      "/api/auth/sign-in/email/",
      "/api/auth/sign-in/%65mail",
      "/api/auth/Sign-In/Email",
      "/api/auth/oauth2/../sign-in/email",
      "/api/auth/./sign-in/email",
    ];
    for (const [i, path] of spellings.entries()) {
      const status = (await attempt(path, ip, 100 + i)).status;
      // refused by the limit, or no endpoint at all: never another attempt at a password
      expect([404, 429], `${path} answered ${status}`).toContain(status);
    }
    expect((await attempt("/api/auth/sign-in/email", ip, 200)).status).toBe(429);
  });

  it("behind a trusted proxy, counts the address the proxy saw, whatever the client put before it", async () => {
    stubEnv("TRUST_PROXY", "1");
    const statuses = [];
    for (let i = 0; i < 11; i++)
      statuses.push((await attempt("/api/auth/sign-in/email", `10.9.8.${i}, 203.0.113.60`, i)).status);
    expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
    expect(statuses[10]).toBe(429);
  });

  it("counts IPv6 spellings of one address, and the addresses of one /64, as one client", async () => {
    stubEnv("TRUST_PROXY", "1");
    const n = freshNet(); // e.g. 2001:db8:2:
    const [a, b, c] = n.split(":");
    const spellings = [
      `${n}:1`,
      `${a.toUpperCase()}:${b.toUpperCase()}:${c}:0:0:0:0:1`,
      `${a}:0${b}:${c}:0000:0000:0000:0000:0001`,
      `${a}:${b}:${c}:0::1`,
      `${n}:2`,
      `${n}:dead:beef`,
      `${a}:${b}:${c}:0:ffff:ffff:ffff:ffff`,
      `${n}:1`,
      `${n}:3`,
      `${n}:4`,
    ];
    const statuses = [];
    for (const [i, ip] of spellings.entries()) statuses.push((await attempt("/api/auth/sign-in/email", ip, i)).status);
    expect(statuses.every((s) => s === 401)).toBe(true);
    expect((await attempt("/api/auth/sign-in/email", `${n}:abcd`, 99)).status).toBe(429);
    // an IPv4 client and its IPv4-mapped IPv6 spelling are one client too
    const v4 = [];
    for (let i = 0; i < 10; i++)
      v4.push((await attempt("/api/auth/sign-in/email", i % 2 ? "203.0.113.70" : "::ffff:203.0.113.70", i)).status);
    expect(v4.every((s) => s === 401)).toBe(true);
    expect((await attempt("/api/auth/sign-in/email", "::ffff:cb00:7146", 10)).status).toBe(429);
  });

  it("refuses a sign-in whose callback URL would leave the site, before checking the password", async () => {
    const signInTo = (field: string, value: string, address: string) =>
      authPost(
        new Request(`${BASE}/api/auth/sign-in/email`, {
          method: "POST",
          headers: { "content-type": "application/json", origin: BASE, "x-forwarded-for": address },
          body: JSON.stringify({ email: p.admin.email, password: p.admin.password, [field]: value }),
        }),
      );
    let n = 0;
    for (const value of [
      "https://evil.example/x",
      "//evil.example/x",
      "/.//evil.example/x",
      "/\\evil.example/x",
      "javascript:alert(1)",
    ]) {
      for (const field of ["callbackURL", "errorCallbackURL", "newUserCallbackURL"]) {
        const res = await signInTo(field, value, `198.51.100.${150 + (n++ % 20)}`);
        expect(res.status, `${field} ${value}`).toBe(403);
        expect(await res.json()).toMatchObject({ error: { code: "forbidden", details: { field } } });
        expect(res.headers.getSetCookie()).toEqual([]);
      }
    }
    const home = await signInTo("callbackURL", "/workspaces?owner=erin", "198.51.100.190");
    expect(home.status).toBe(200);
    expect(((await home.json()) as { url?: string }).url ?? "/workspaces?owner=erin").not.toMatch(/evil/);
  });

  it("refuses a disabled user's and a revoked token's very next request", async () => {
    const victim = await signIn(p.viewer.email, p.viewer.password, { "x-forwarded-for": "198.51.100.200" });
    const asVictim = () => me(new Request(`${BASE}/api/v1/me`, { headers: { cookie: victim } }), ctx());
    expect((await asVictim()).status).toBe(200);
    const disable = await patchUser(
      new Request(`${BASE}/api/v1/users/${p.viewer.id}`, {
        method: "PATCH",
        headers: { authorization: `Bearer ${p.adminToken}`, "content-type": "application/json" },
        body: JSON.stringify({ disabled: true }),
      }),
      ctx({ id: p.viewer.id }),
    );
    expect(disable.status).toBe(200);
    expect((await asVictim()).status).toBe(401);

    const made = await createToken(
      new Request(`${BASE}/api/v1/tokens`, {
        method: "POST",
        headers: { authorization: `Bearer ${p.adminToken}`, "content-type": "application/json" },
        body: JSON.stringify({ name: "to-revoke", role: "viewer" }),
      }),
      ctx(),
    );
    const { token, info } = (await made.json()) as { token: string; info: { id: string } };
    const asToken = () =>
      me(new Request(`${BASE}/api/v1/me`, { headers: { authorization: `Bearer ${token}` } }), ctx());
    expect((await asToken()).status).toBe(200);
    const revoked = await revokeToken(
      new Request(`${BASE}/api/v1/tokens/${info.id}`, {
        method: "DELETE",
        headers: { authorization: `Bearer ${p.adminToken}` },
      }),
      ctx({ id: info.id }),
    );
    expect(revoked.status).toBeLessThan(300);
    expect((await asToken()).status).toBe(401);
  });

  it("keeps the session cookie HttpOnly and SameSite=Lax, and Secure when a trusted TLS proxy says https", async () => {
    const signInWith = async (headers: Record<string, string>) => {
      const res = await authPost(
        new Request("http://localhost:3000/api/auth/sign-in/email", {
          method: "POST",
          headers: { "content-type": "application/json", host: "storage.example.com", ...headers },
          body: JSON.stringify({ email: p.admin.email, password: p.admin.password }),
        }),
      );
      expect(res.status, await res.clone().text()).toBe(200);
      return res.headers.getSetCookie().find((c) => /session_token=/.test(c))!;
    };
    const https = { origin: "https://storage.example.com", "x-forwarded-proto": "https" };
    // a client's own claim of https counts for nothing without a trusted proxy
    const claimed = await signInWith({ ...https, "x-forwarded-for": "198.51.100.201" });
    expect(claimed).toMatch(/HttpOnly/i);
    expect(claimed).toMatch(/SameSite=Lax/i);
    expect(claimed).not.toMatch(/;\s*Secure/i);
    stubEnv("TRUST_PROXY", "1");
    const proxied = await signInWith({ ...https, "x-forwarded-for": "198.51.100.202" });
    expect(proxied).toMatch(/HttpOnly/i);
    expect(proxied).toMatch(/SameSite=Lax/i);
    expect(proxied).toMatch(/;\s*Secure/i);
    // and a proxy that says http gets none
    const plain = await signInWith({
      origin: "http://storage.example.com",
      "x-forwarded-proto": "http",
      "x-forwarded-for": "198.51.100.203",
    });
    expect(plain).not.toMatch(/;\s*Secure/i);
  });
});
