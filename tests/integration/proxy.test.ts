// The proxy (proxy.ts) called as Next calls it: which answers get the security headers and the page policy,
// and the signed-out redirect it has always made.
import { NextRequest } from "next/server";
import { afterEach, describe, expect, it, vi } from "vitest";
import { resetConfigForTests } from "@/lib/config";
import { config, proxy } from "@/proxy";

const request = (path: string, cookie?: string) =>
  new NextRequest(`http://dashboard.test${path}`, { headers: cookie ? { cookie } : {} });
const SESSION = "storage.session_token=abc.def";

/** Whether Next would run the proxy for this path (the matcher is a path-to-regexp source: a regex here). */
const matches = (path: string) => config.matcher.some((m) => new RegExp(`^${m}$`).test(path));

afterEach(() => {
  vi.unstubAllEnvs();
  resetConfigForTests();
});

describe("proxy", () => {
  it("runs for every page, sign-in and setup included, and for the API; not for build assets", () => {
    for (const p of ["/", "/sign-in", "/setup", "/workspaces/x", "/api/auth/get-session", "/api/v1/x", "/reporter.mjs"])
      expect(matches(p), p).toBe(true);
    for (const p of ["/_next/static/chunks/a.js", "/favicon.ico"]) expect(matches(p), p).toBe(false);
  });

  it("gives a signed-in page a policy with a fresh nonce, passed to the render in the request's headers", () => {
    const a = proxy(request("/cleanup", SESSION));
    const b = proxy(request("/cleanup", SESSION));
    const policy = a.headers.get("content-security-policy")!;
    expect(policy).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]{22,}' 'strict-dynamic'/);
    expect(/script-src [^;]*/.exec(policy)![0]).not.toMatch(/unsafe-inline|unsafe-eval/);
    for (const d of ["object-src 'none'", "base-uri 'self'", "form-action 'self'", "frame-ancestors 'none'"])
      expect(policy).toContain(d);
    expect(b.headers.get("content-security-policy")).not.toBe(policy);
    // NextResponse.next({ request: { headers } }) hands the render its headers as x-middleware-request-*.
    const nonce = /'nonce-([^']+)'/.exec(policy)![1];
    expect(a.headers.get("x-middleware-request-x-nonce")).toBe(nonce);
    expect(a.headers.get("x-middleware-request-content-security-policy")).toBe(policy);
    expect(a.headers.get("x-content-type-options")).toBe("nosniff");
    expect(a.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    expect(a.headers.get("permissions-policy")).toContain("camera=()");
    expect(a.headers.get("strict-transport-security")).toBeNull();
  });

  it("sends a visit without a session to sign-in with the page in next=, with the headers; sign-in and setup render", () => {
    const res = proxy(request("/cleanup/runs?x=1"));
    expect(res.status).toBe(307);
    expect(new URL(res.headers.get("location")!).pathname).toBe("/sign-in");
    expect(new URL(res.headers.get("location")!).searchParams.get("next")).toBe("/cleanup/runs?x=1");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    for (const p of ["/sign-in", "/setup", "/sign-in?next=/x"]) {
      const open = proxy(request(p));
      expect(open.headers.get("location"), p).toBeNull();
      expect(open.headers.get("content-security-policy"), p).toContain("frame-ancestors 'none'");
    }
  });

  it("leaves /metrics and the reporter's files to machines (no sign-in redirect); pages named like them are pages", () => {
    for (const p of ["/metrics", "/reporter.mjs", "/reporter.mjs.sha256"])
      expect(proxy(request(p)).headers.get("location"), p).toBeNull();
    for (const p of ["/metrics-page", "/metrics/x"]) expect(proxy(request(p)).status, p).toBe(307);
  });

  it("sends Strict-Transport-Security and upgrades requests only when the configured URL is https", () => {
    vi.stubEnv("BETTER_AUTH_URL", "https://storage.example.com");
    resetConfigForTests();
    const res = proxy(request("/sign-in"));
    expect(res.headers.get("strict-transport-security")).toMatch(/^max-age=\d{8,}/);
    expect(res.headers.get("content-security-policy")).toContain("upgrade-insecure-requests");
    vi.stubEnv("BETTER_AUTH_URL", "http://storage.internal");
    resetConfigForTests();
    expect(proxy(request("/sign-in")).headers.get("strict-transport-security")).toBeNull();
  });

  it("answers the API without a redirect, with a policy that runs and frames nothing, never to be cached", () => {
    for (const p of ["/api/auth/get-session", "/api/v1/nothing-here", "/metrics"]) {
      const res = proxy(request(p));
      expect(res.headers.get("location"), p).toBeNull();
      expect(res.headers.get("content-security-policy"), p).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(res.headers.get("cache-control"), p).toBe("no-store");
      expect(res.headers.get("x-content-type-options"), p).toBe("nosniff");
    }
    // The workspaces' endpoints keep the routes' "no-transform": their small answers are not gzipped.
    for (const p of ["/api/v1/reports", "/api/v1/reports/batch", "/api/v1/health", "/api/v1/jobs/claim"])
      expect(proxy(request(p)).headers.get("cache-control"), p).toBe("no-store, no-transform");
    expect(proxy(request("/api/v1/workspaces")).headers.get("cache-control")).toBe("no-store");
  });
});
