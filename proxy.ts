import { getSessionCookie } from "better-auth/cookies";
import { NextResponse, type NextRequest } from "next/server";
import { COOKIE_PREFIX, PATH_HEADER } from "@/lib/auth/constants";

// The cheap part of page protection: a visit without a session cookie goes to the sign-in page (and comes back
// after). It only looks for the cookie; every page checks the session itself (lib/auth/page.ts), and every
// API route through requireCaller, so nothing here is trusted for access.
export function proxy(request: NextRequest) {
  const { pathname, search } = request.nextUrl;
  const headers = new Headers(request.headers);
  headers.set(PATH_HEADER, `${pathname}${search}`);
  if (!getSessionCookie(request, { cookiePrefix: COOKIE_PREFIX })) {
    const url = new URL("/sign-in", request.url);
    if (pathname !== "/") url.searchParams.set("next", `${pathname}${search}`);
    return NextResponse.redirect(url);
  }
  return NextResponse.next({ request: { headers } });
}

export const config = {
  // Pages only: not the API (it answers 401 itself), Next's assets, the reporter, or the sign-in and setup pages.
  matcher: ["/((?!api/|_next/|favicon\\.ico|reporter\\.mjs|sign-in|setup).*)"],
};
