import { CLIENT_IP_HEADER, clientIp, forwardedHttps } from "@/lib/auth/client-ip";
import { appUrl, getAuth } from "@/lib/auth/server";
import { readBody } from "@/lib/http/request";
import { errorResponse, toErrorResponse } from "@/lib/http/response";
import { safeNextPath } from "@/lib/validations/auth";

export const dynamic = "force-dynamic";

// Better Auth's endpoints, as far as this app uses them. Its plugins also bring endpoints for users, roles,
// bans and API keys, and sign-up: those stay unreachable over HTTP (404), so that every such change goes
// through /api/v1 with its last-admin check, its audit record and its role check.
const ALLOWED: readonly RegExp[] = [
  /^POST \/sign-in\/email$/,
  /^POST \/sign-in\/social$/,
  /^(GET|POST) \/callback\/[\w-]+$/,
  /^POST \/sign-out$/,
  /^GET \/get-session$/,
  /^GET \/(ok|error)$/,
];

const SIGN_IN_BODY_BYTES = 64 * 1024;
// Where Better Auth sends the browser after a sign-in. It answers a sign-in with any callbackURL it is given
// (https://evil.example included) in its `url`: only a path on this site goes through, as for `next=`.
const REDIRECT_FIELDS = ["callbackURL", "errorCallbackURL", "newUserCallbackURL", "redirectTo"] as const;

/** The first redirect field of a sign-in body that is not a path on this site, or null. */
function offSiteRedirect(body: Buffer): string | null {
  let value: unknown;
  try {
    value = JSON.parse(body.toString("utf8"));
  } catch {
    return null; // not JSON: Better Auth refuses it itself
  }
  if (typeof value !== "object" || value === null) return null;
  const fields = value as Record<string, unknown>;
  return REDIRECT_FIELDS.find((f) => f in fields && safeNextPath(fields[f], "") === "") ?? null;
}

async function dispatch(request: Request): Promise<Response> {
  // The callback URL registered in Coder is the path Better Auth's generic OAuth used before its providers moved to
  // /callback/:id: it is served as that one.
  const url = new URL(request.url);
  url.pathname = url.pathname.replace(/^\/api\/auth\/oauth2\/callback\//, "/api/auth/callback/");
  const path = url.pathname.replace(/^\/api\/auth/, "");
  if (!ALLOWED.some((r) => r.test(`${request.method} ${path}`))) {
    return errorResponse(404, "not_found", `No auth endpoint ${request.method} /api/auth${path}.`);
  }
  // Better Auth's rate limiter keys on the address decided in lib/auth/client-ip (never a client's claim).
  const headers = new Headers(request.headers);
  headers.delete(CLIENT_IP_HEADER);
  const ip = clientIp(request.headers);
  if (ip) headers.set(CLIENT_IP_HEADER, ip);
  const init: RequestInit & { duplex?: "half" } = {
    method: request.method,
    headers,
    body: request.body,
    duplex: "half",
  };
  if (request.method === "GET" || request.method === "HEAD") delete init.body;
  if (path.startsWith("/sign-in/")) {
    try {
      const body = await readBody(request, SIGN_IN_BODY_BYTES);
      const field = offSiteRedirect(body);
      if (field) return errorResponse(403, "forbidden", `${field} must be a path on this site.`, { field });
      init.body = new Uint8Array(body);
    } catch (err) {
      return toErrorResponse(err);
    }
  }
  return secureBehindProxy(request, await (await getAuth()).handler(new Request(url, init)));
}

/**
 * Without a configured URL Better Auth cannot know the browser's scheme, and sets cookies without Secure (or
 * plain http would lose them). Behind a trusted TLS proxy that says the browser came over https, they are Secure.
 */
function secureBehindProxy(request: Request, response: Response): Response {
  const cookies = response.headers.getSetCookie();
  if (appUrl() || !cookies.length || !forwardedHttps(request.headers)) return response;
  const headers = new Headers(response.headers);
  headers.delete("set-cookie");
  for (const c of cookies) headers.append("set-cookie", /;\s*secure(;|$)/i.test(c) ? c : `${c}; Secure`);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

export const GET = dispatch;
export const POST = dispatch;
