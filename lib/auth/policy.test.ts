import { runWithRequestState } from "@better-auth/core/context";
import { afterEach, describe, expect, it } from "vitest";
import { resetConfigForTests } from "@/lib/config";
import { clientIp, stripUntrustedForwardedFor } from "./client-ip";
import { decideOidcAccess, oidcDecision, rememberDecision } from "./oidc";

const saved = { ...process.env };
afterEach(() => {
  for (const k of [
    "TRUST_PROXY",
    "OIDC_ALLOWED_DOMAINS",
    "OIDC_ADMIN_GROUPS",
    "OIDC_ADMIN_EMAILS",
    "OIDC_GROUPS_CLAIM",
  ]) {
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  }
  resetConfigForTests();
});

describe("client address", () => {
  it("drops a client-sent x-forwarded-for unless TRUST_PROXY=1", () => {
    const req = { headers: { "x-forwarded-for": "203.0.113.9" } as Record<string, unknown> };
    stripUntrustedForwardedFor(req);
    expect(req.headers["x-forwarded-for"]).toBeUndefined();
    process.env.TRUST_PROXY = "1";
    resetConfigForTests();
    const proxied = { headers: { "x-forwarded-for": "203.0.113.9, 198.51.100.4" } as Record<string, unknown> };
    stripUntrustedForwardedFor(proxied);
    expect(proxied.headers["x-forwarded-for"]).toBe("203.0.113.9, 198.51.100.4");
  });
  it("takes the right-most entry: the one the trusted proxy (or Next, from the socket) wrote", () => {
    expect(clientIp(new Headers({ "x-forwarded-for": "203.0.113.9, 198.51.100.4" }))).toBe("198.51.100.4");
    expect(clientIp(new Headers({ "x-forwarded-for": "::ffff:127.0.0.1" }))).toBe("127.0.0.1");
    expect(clientIp(new Headers())).toBeNull();
  });
});

describe("single sign-on policy", () => {
  it("needs a verified email in an allowed domain", () => {
    process.env.OIDC_ALLOWED_DOMAINS = "example.com, @corp.example";
    resetConfigForTests();
    expect(decideOidcAccess({ email: "a@example.com", email_verified: false })).toMatchObject({
      allowed: false,
      reason: expect.stringMatching(/not verified/),
    });
    expect(decideOidcAccess({ email: "a@other.org", email_verified: true })).toMatchObject({
      allowed: false,
      reason: expect.stringMatching(/other\.org/),
    });
    expect(decideOidcAccess({ email: "A@Corp.Example", email_verified: true })).toEqual({
      allowed: true,
      role: "viewer",
    });
    expect(decideOidcAccess({ email_verified: true })).toMatchObject({ allowed: false });
  });
  it("makes admins from a groups claim or a list of emails", () => {
    process.env.OIDC_ADMIN_GROUPS = "storage-admins";
    process.env.OIDC_ADMIN_EMAILS = "boss@example.com";
    resetConfigForTests();
    expect(
      decideOidcAccess({ email: "a@example.com", email_verified: true, groups: ["dev", "storage-admins"] }),
    ).toEqual({ allowed: true, role: "admin" });
    expect(decideOidcAccess({ email: "boss@example.com", email_verified: true })).toEqual({
      allowed: true,
      role: "admin",
    });
    expect(decideOidcAccess({ email: "a@example.com", email_verified: true, groups: ["dev"] })).toEqual({
      allowed: true,
      role: "viewer",
    });
    process.env.OIDC_GROUPS_CLAIM = "roles";
    resetConfigForTests();
    expect(decideOidcAccess({ email: "a@example.com", email_verified: true, roles: "storage-admins" })).toEqual({
      allowed: true,
      role: "admin",
    });
  });
});

describe("a single sign-on's pending decision", () => {
  // Each callback runs in a request state of its own (Better Auth's endpoints do so); two of them here.
  const inCallback = <T>(fn: () => Promise<T>) => runWithRequestState(new WeakMap(), fn);

  it("is read only by its own sign-in, even when two sign-ins for one email overlap", async () => {
    let bRemembered!: () => void;
    const afterB = new Promise<void>((resolve) => (bRemembered = resolve));
    const a = inCallback(async () => {
      await rememberDecision("Twin@example.com", { allowed: true, role: "admin" });
      await afterB;
      return oidcDecision("twin@example.com", true);
    });
    const b = inCallback(async () => {
      await rememberDecision("twin@example.com", { allowed: true, role: "member", coderUsername: "twin" });
      bRemembered();
      return oidcDecision("twin@example.com", true);
    });
    expect(await a).toEqual({ allowed: true, role: "admin" });
    expect(await b).toEqual({ allowed: true, role: "member", coderUsername: "twin" });
  });

  it("is for one email, and gone once taken", async () => {
    await inCallback(async () => {
      await rememberDecision("one@example.com", { allowed: true, role: "viewer" });
      expect(await oidcDecision("other@example.com")).toBeUndefined();
      expect(await oidcDecision("one@example.com")).toEqual({ allowed: true, role: "viewer" });
      expect(await oidcDecision("one@example.com", true)).toEqual({ allowed: true, role: "viewer" });
      expect(await oidcDecision("one@example.com")).toBeUndefined();
    });
    expect(await inCallback(() => oidcDecision("one@example.com"))).toBeUndefined();
  });
});
