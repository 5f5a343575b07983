// The browser defences, in Chromium against the built app: every page (the signed-in ones of page-list.ts, and
// sign-in and setup signed out) answers with the Content-Security-Policy and the other security headers, runs
// under that policy without a single violation (Next's scripts, next-themes' theme script and the charts'
// styles included), and cannot be framed by another site.
import fs from "node:fs";
import type { BrowserContext, Response } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN, startHarness, type Harness } from "./harness";
import { makePageObjects, PAGES } from "./page-list";

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
  await makePageObjects(h);
});

afterAll(async () => {
  await h?.close();
});

/** What a page must answer with; the problems found, for one expect per page. */
function headerProblems(res: Response | null): string[] {
  if (!res) return ["no answer"];
  const headers = res.headers();
  const problems: string[] = [];
  const csp = headers["content-security-policy"] ?? "";
  const directives = new Map(
    csp
      .split(";")
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map(([name, ...values]) => [name, values]),
  );
  const script = directives.get("script-src") ?? [];
  if (!script.some((v) => /^'nonce-[A-Za-z0-9+/=]{16,}'$/.test(v))) problems.push(`script-src without a nonce: ${csp}`);
  if (script.includes("'unsafe-inline'") || script.includes("'unsafe-eval'")) problems.push(`script-src: ${script}`);
  const want: Record<string, string> = {
    "object-src": "'none'",
    "base-uri": "'self'",
    "form-action": "'self'",
    "frame-ancestors": "'none'",
  };
  for (const [name, value] of Object.entries(want)) {
    if (directives.get(name)?.join(" ") !== value) problems.push(`${name} is ${directives.get(name)}, not ${value}`);
  }
  if (headers["x-content-type-options"] !== "nosniff") problems.push("no nosniff");
  if (headers["referrer-policy"] !== "strict-origin-when-cross-origin") problems.push("referrer policy");
  if (!/camera=\(\)/.test(headers["permissions-policy"] ?? "")) problems.push("no permissions policy");
  // The test server is plain http: telling a browser to insist on https would lock it out.
  if (headers["strict-transport-security"]) problems.push("HSTS over http");
  return problems;
}

/**
 * Opens a path and collects every CSP violation the page reports: the `securitypolicyviolation` events (from
 * before the first script runs) and Chromium's console messages about the policy.
 */
async function visit(context: BrowserContext, path: string) {
  const page = await context.newPage();
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __csp: string[] }).__csp = seen;
    document.addEventListener("securitypolicyviolation", (e) =>
      seen.push(`${e.violatedDirective} blocked ${e.blockedURI || "inline"} (${e.sourceFile}:${e.lineNumber})`),
    );
  });
  const violations: string[] = [];
  page.on("console", (m) => {
    if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
  });
  const res = await page.goto(`${h.base}${path}`, { waitUntil: "networkidle" });
  await page.waitForSelector("html[data-hydrated]", { state: "attached", timeout: 15_000 });
  violations.push(...(await page.evaluate(() => (window as unknown as { __csp: string[] }).__csp)));
  return { page, res, violations };
}

describe("every page under the Content-Security-Policy", () => {
  it.each(PAGES)("$name: the headers, and no violation", async (spec) => {
    const context = await h.browser.newContext({ storageState: h.admin });
    try {
      const { res, violations } = await visit(context, spec.path());
      expect(res?.status(), spec.path()).toBeLessThan(400);
      expect(headerProblems(res), spec.path()).toEqual([]);
      expect(violations, spec.path()).toEqual([]);
      // Every script of the server's HTML carries this answer's nonce (the chunks they load later need none:
      // 'strict-dynamic' trusts what a trusted script loads).
      const nonce = /'nonce-([^']+)'/.exec(res!.headers()["content-security-policy"])![1];
      const tags = (await res!.text()).match(/<script\b[^>]*>/g) ?? [];
      expect(tags.length).toBeGreaterThan(0);
      expect(tags.filter((tag) => !tag.includes(`nonce="${nonce}"`))).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it.each(["/sign-in", "/setup"])("%s signed out: the headers, and no violation", async (path) => {
    const context = await h.browser.newContext();
    try {
      const { page, res, violations } = await visit(context, path);
      // /setup sends a visitor to sign-in once an admin exists: both answers must carry the headers.
      expect(res?.request().redirectedFrom()?.url() ?? res?.url()).toContain(path);
      for (let r = res?.request() ?? null; r; r = r.redirectedFrom()) {
        const answer = await r.response();
        expect(answer?.headers()["x-content-type-options"], r.url()).toBe("nosniff");
      }
      expect(headerProblems(res), path).toEqual([]);
      expect(violations, path).toEqual([]);
      expect(new URL(page.url()).pathname).toBe("/sign-in");
    } finally {
      await context.close();
    }
  });

  it("answers an address that is no page with a 404, a way back, and no violation", async () => {
    const context = await h.browser.newContext({ storageState: h.admin });
    try {
      const { page, res, violations } = await visit(context, "/no-such-page");
      expect(res?.status()).toBe(404);
      expect(headerProblems(res)).toEqual([]);
      // Next's own 404 page sets style attributes, which the policy blocks
      expect(violations).toEqual([]);
      await expect(page.getByRole("heading", { name: "Not found" }).count()).resolves.toBe(1);
      await page.getByRole("link", { name: "Back to the fleet overview" }).click();
      await page.waitForURL(`${h.base}/`);
    } finally {
      await context.close();
    }
  });

  it("gives every answer a nonce of its own", async () => {
    const context = await h.browser.newContext();
    const policies = await Promise.all(
      [1, 2, 3].map(async () => (await context.request.get(`${h.base}/sign-in`)).headers()["content-security-policy"]),
    );
    await context.close();
    const nonces = policies.map((p) => /'nonce-([^']+)'/.exec(p)?.[1]);
    expect(nonces.every(Boolean)).toBe(true);
    expect(new Set(nonces).size).toBe(3);
  });

  it("keeps the theme script working: a dark theme chosen is applied before the first paint", async () => {
    const context = await h.browser.newContext({ storageState: h.admin, colorScheme: "light" });
    await context.addInitScript(() => localStorage.setItem("theme", "dark"));
    try {
      const { page, violations } = await visit(context, "/");
      expect(violations).toEqual([]);
      expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe("dark");
      fs.mkdirSync("screenshots", { recursive: true });
      await page.screenshot({ path: "screenshots/security-dark-under-csp.png" });
    } finally {
      await context.close();
    }
  });
});

describe("API answers", () => {
  it("send nosniff and are never cached, on /api/v1 and on Better Auth's endpoints", async () => {
    const context = await h.browser.newContext({ storageState: h.admin });
    try {
      for (const path of ["/api/v1/me", "/api/v1/workspaces", "/api/v1/nothing-here", "/api/auth/get-session"]) {
        const headers = (await context.request.get(`${h.base}${path}`)).headers();
        expect(headers["x-content-type-options"], path).toBe("nosniff");
        expect(headers["cache-control"], path).toMatch(/no-store/);
      }
    } finally {
      await context.close();
    }
  });

  it("are gzipped when large, and not on the endpoints workspaces call, whose answers are a few hundred bytes", async () => {
    const context = await h.browser.newContext({ storageState: h.admin });
    try {
      const gzip = { "accept-encoding": "gzip" };
      const list = await context.request.get(`${h.base}/api/v1/workspaces`, { headers: gzip });
      expect(list.headers()["content-encoding"]).toBe("gzip");
      const health = await context.request.get(`${h.base}/api/v1/health`, { headers: gzip });
      const report = await context.request.post(`${h.base}/api/v1/reports`, { headers: gzip, data: {} });
      for (const [res, status] of [
        [health, 200],
        [report, 401],
      ] as const) {
        expect(res.status()).toBe(status);
        expect(res.headers()["content-encoding"], res.url()).toBeUndefined();
        expect(res.headers()["cache-control"], res.url()).toBe("no-store, no-transform");
      }
    } finally {
      await context.close();
    }
  });
});

describe("open redirects", () => {
  it("refuses a sign-in whose callback URL leaves the site, however it is spelled", async () => {
    const context = await h.browser.newContext();
    try {
      // The right password: the only thing wrong is where the answer would send the browser. (Three attempts
      // of the address's ten a minute.)
      for (const callbackURL of ["https://evil.example/x", "//evil.example/x", "/\\evil.example/x"]) {
        const res = await context.request.post(`${h.base}/api/auth/sign-in/email`, {
          headers: { origin: h.base },
          data: { ...ADMIN, callbackURL },
        });
        expect(res.status(), `${callbackURL}: ${await res.text()}`).toBe(403);
        expect(res.headers()["set-cookie"] ?? "", callbackURL).not.toMatch(/session_token=[^;]/);
      }
    } finally {
      await context.close();
    }
  });
});

describe("framing", () => {
  it("a signed-in page cannot be framed by another site; a page that allows it can", async () => {
    const context = await h.browser.newContext({ storageState: h.admin });
    const page = await context.newPage();
    // Another site (answered by the test itself, no network), whose page frames the cleanup page and, as the
    // control that the test sees a framed page at all, a page of its own.
    const evil = "http://evil.localhost.test";
    await page.route(`${evil}/**`, (route) =>
      route.fulfill({
        contentType: "text/html",
        body: route.request().url().endsWith("/inner")
          ? "<!doctype html><title>inner</title><p>framed</p>"
          : `<!doctype html><title>evil</title>
             <iframe name="dashboard" src="${h.base}/cleanup"></iframe>
             <iframe name="control" src="${evil}/inner"></iframe>`,
      }),
    );
    try {
      await page.goto(`${evil}/`, { waitUntil: "load" });
      const title = (name: string) => page.frame({ name })!.evaluate(() => document.title);
      await expect.poll(() => title("control")).toBe("inner");
      // Chromium replaces a refused frame's document with its own error page: nothing of the dashboard loads.
      expect(page.frame({ name: "dashboard" })!.url()).not.toContain(h.base);
      expect(await title("dashboard")).not.toMatch(/Workspace storage|Cleanup|Sign in/);
      fs.mkdirSync("screenshots", { recursive: true });
      await page.screenshot({ path: "screenshots/security-framed.png" });
    } finally {
      await context.close();
    }
  });
});
