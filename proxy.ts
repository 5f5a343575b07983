import { getSessionCookie } from "better-auth/cookies";
import { NextResponse, type NextRequest } from "next/server";
import { COOKIE_PREFIX, NONCE_HEADER, PATH_HEADER } from "@/lib/auth/constants";
import {
  API_POLICY,
  baseSecurityHeaders,
  contentSecurityPolicy,
  newNonce,
  servedOverHttps,
  SMALL_ANSWER_CACHE_CONTROL,
  WORKSPACE_ENDPOINTS,
} from "@/lib/http/security-headers";

// Pages that a visitor without a session may see: they check the session themselves.
const OPEN_PAGES = /^\/(sign-in|setup)(\/|$)/;
// Answers for machines, not pages: the API, /metrics (Prometheus follows no redirect to a sign-in page: it gets the
// route's own 401), the reporter with its checksum and the Node.js runtimes, which workspaces download without a
// session, and the Terraform module with its registry protocol, which `terraform init` reads without one.
const MACHINE_PATHS =
  /^\/(api\/|metrics$|reporter\.mjs(\.sha256)?$|runtime\/|terraform\/|\.well-known\/terraform\.json$)/;
// Downloads whose name says what they hold (their version is in it): a cache may keep them, unlike the API's answers.
const DOWNLOADS = /^\/(runtime\/|terraform\/[^/]+\.tar\.gz$)/;
// The reporter and its checksum: the version depends on the workspace asking (the rollout), so a route serves them.
const REPORTER_FILES = /^\/(reporter\.mjs(\.sha256)?)$/;

// Every page gets the security headers and a Content-Security-Policy with a nonce of its own; Next reads the
// nonce from the request's policy and puts it on its scripts, and the root layout hands it to next-themes.
// The cheap part of page protection is here too: a visit without a session cookie goes to the sign-in page
// (and comes back after). It only looks for the cookie; every page checks the session itself
// (lib/auth/page.ts), and every API route through requireCaller, so nothing here is trusted for access.
export function proxy(request: NextRequest) {
  const { pathname, search } = request.nextUrl;
  const https = servedOverHttps();
  let response: NextResponse;
  if (MACHINE_PATHS.test(pathname)) {
    // No page here: nothing to run, nothing to frame, nothing to keep in a cache (the routes of /api/v1 set the
    // same in lib/http/response.ts, for when they are called without the proxy).
    const reporterFile = REPORTER_FILES.exec(pathname)?.[1];
    response = reporterFile
      ? NextResponse.rewrite(new URL(`/api/v1/reporter/${reporterFile}`, request.url))
      : NextResponse.next();
    response.headers.set("content-security-policy", API_POLICY);
    // The proxy's headers win over the route's: the workspaces' small answers keep their "no-transform" here.
    if (WORKSPACE_ENDPOINTS.test(pathname)) response.headers.set("cache-control", SMALL_ANSWER_CACHE_CONTROL);
    else if (!DOWNLOADS.test(pathname)) response.headers.set("cache-control", "no-store");
  } else if (!OPEN_PAGES.test(pathname) && !getSessionCookie(request, { cookiePrefix: COOKIE_PREFIX })) {
    const url = new URL("/sign-in", request.url);
    if (pathname !== "/") url.searchParams.set("next", `${pathname}${search}`);
    response = NextResponse.redirect(url);
  } else {
    const nonce = newNonce();
    const policy = contentSecurityPolicy(nonce, { https, dev: process.env.NODE_ENV === "development" });
    const headers = new Headers(request.headers);
    headers.set(PATH_HEADER, `${pathname}${search}`);
    headers.set(NONCE_HEADER, nonce);
    headers.set("content-security-policy", policy);
    response = NextResponse.next({ request: { headers } });
    response.headers.set("content-security-policy", policy);
  }
  for (const [name, value] of Object.entries(baseSecurityHeaders(https))) response.headers.set(name, value);
  return response;
}

export const config = {
  // Everything but Next's build assets.
  matcher: ["/((?!_next/static/|_next/image/|favicon\\.ico).*)"],
};
