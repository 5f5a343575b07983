import { CLIENT_IP_HEADER, clientIp } from "@/lib/auth/client-ip";
import { getAuth } from "@/lib/auth/server";
import { errorResponse } from "@/lib/http/response";

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
  return (await getAuth()).handler(new Request(url, init));
}

export const GET = dispatch;
export const POST = dispatch;
