// Where a request comes from, decided in one place for the audit log and Better Auth's rate limiter.
//
// `next start` fills x-forwarded-for with the socket's address only when the client did not send one, so a
// client could name any address. instrumentation.ts therefore drops an incoming x-forwarded-for unless
// TRUST_PROXY=1; then the header holds the socket address. With TRUST_PROXY=1 (a reverse proxy in front that
// appends the client it saw) the right-most entry is that proxy's view, the only one not written by the client.

import { config } from "@/lib/config";

export const CLIENT_IP_HEADER = "x-storage-client-ip";

export const trustProxy = () => config().trustProxy;

export function clientIp(headers: Headers): string | null {
  const chain = (headers.get("x-forwarded-for") ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const ip = chain.at(-1);
  if (!ip) return null;
  // IPv4 addresses mapped into IPv6 (how Node reports them on a dual-stack socket) read better as IPv4.
  return ip.startsWith("::ffff:") && ip.includes(".") ? ip.slice(7) : ip;
}

/** True when a trusted proxy (TRUST_PROXY=1) says the browser came over https (its X-Forwarded-Proto). */
export function forwardedHttps(headers: Headers): boolean {
  const proto = (headers.get("x-forwarded-proto") ?? "").split(",").at(-1)?.trim().toLowerCase();
  return trustProxy() && proto === "https";
}

export function requestOrigin(headers: Headers): { ip: string | null; userAgent: string | null } {
  return { ip: clientIp(headers), userAgent: headers.get("user-agent") };
}

/**
 * Drops a client-sent x-forwarded-for from a Node request before Next reads it (unless TRUST_PROXY=1), so
 * Next records the socket's own address. Installed from instrumentation.ts.
 */
export function stripUntrustedForwardedFor(req: { headers: Record<string, unknown> }) {
  if (!trustProxy()) delete req.headers["x-forwarded-for"];
}

let installed = false;
/** Applies stripUntrustedForwardedFor to every request the process's HTTP servers receive. */
export async function installForwardedForGuard() {
  if (installed) return;
  installed = true;
  const http = await import("node:http");
  const proto = http.Server.prototype as unknown as { emit: (event: string, ...args: unknown[]) => boolean };
  const emit = proto.emit;
  proto.emit = function (this: unknown, event: string, ...args: unknown[]) {
    if (event === "request") stripUntrustedForwardedFor(args[0] as { headers: Record<string, unknown> });
    return emit.call(this, event, ...args);
  };
}

/**
 * The origins of the site the browser addressed: the request's Host (the proxy's X-Forwarded-Host only with
 * TRUST_PROXY=1), on http or https (a TLS proxy in front changes the scheme). Next hands route handlers a
 * request.url on its own listening address, not the host the browser used, so that cannot decide it. Our own
 * same-site check and, without a configured URL, Better Auth's origin check both trust exactly these.
 */
export function addressedOrigins(request: Request | undefined): string[] {
  if (!request) return [];
  // Without a Host header (a request made in-process), the request's own URL is all there is.
  const host =
    (trustProxy() && request.headers.get("x-forwarded-host")) ||
    request.headers.get("host") ||
    new URL(request.url).host;
  return [`http://${host}`, `https://${host}`];
}
