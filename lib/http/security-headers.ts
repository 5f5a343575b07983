// The headers every answer carries (set by proxy.ts for pages and Better Auth's endpoints, by the route
// wrapper for /api/v1), and the pages' Content-Security-Policy. No server-only code: the proxy imports this.

import { config } from "@/lib/config";

/** True when the dashboard's configured public URL is https: the browser is then told to stay on https. */
export function servedOverHttps(): boolean {
  return /^https:\/\//i.test(config().appUrl ?? "");
}

/** A fresh, unguessable nonce for one page answer (128 random bits, base64). */
export function newNonce(): string {
  return btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(16))));
}

/**
 * The pages' policy. Scripts run only with this answer's nonce (Next puts it on its own scripts and inline
 * payloads, next-themes on its theme script); 'strict-dynamic' lets those load the chunks they import.
 *
 * Styles: stylesheets from this site and <style> elements with the nonce. Style *attributes* are allowed
 * (style-src-attr 'unsafe-inline'): React renders `style={…}` props into the server's HTML as attributes,
 * which the charts (Recharts positions its tooltip and legend that way) and the bars of the tables use. A
 * style attribute cannot run code; the nonce still guards every <style> element, where CSS could fetch.
 */
export function contentSecurityPolicy(nonce: string, opts: { https: boolean; dev?: boolean }): string {
  const directives = [
    "default-src 'self'",
    // React rebuilds server error stacks with eval in development only.
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${opts.dev ? " 'unsafe-eval'" : ""}`,
    `style-src 'self' 'nonce-${nonce}'`,
    "style-src-attr 'unsafe-inline'",
    // data: for the inline favicon.
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ];
  if (opts.https) directives.push("upgrade-insecure-requests");
  return directives.join("; ");
}

/**
 * Cache-Control of the small answers for machines (lib/http/response.ts machineJson): never kept by a cache, and
 * never gzipped, which costs more CPU than the few hundred bytes it saves.
 */
export const SMALL_ANSWER_CACHE_CONTROL = "no-store, no-transform";

/**
 * The endpoints workspaces call, whose answers are all small (machineJson): the proxy must not turn their
 * Cache-Control back into a plain "no-store", which would have every report's answer gzipped.
 */
export const WORKSPACE_ENDPOINTS = /^\/api\/v1\/(health|enroll|reports(\/batch)?|report-blockers|jobs\/)/;

/** The API's answers are data, never a document: nothing in them may run, load or be framed. */
export const API_POLICY = "default-src 'none'; frame-ancestors 'none'";

/** Headers for every answer, page or API. */
export function baseSecurityHeaders(https: boolean): Record<string, string> {
  const headers: Record<string, string> = {
    "x-content-type-options": "nosniff",
    "referrer-policy": "strict-origin-when-cross-origin",
    // Nothing here uses a camera, a microphone, the location, payments or USB: denied to this site and any frame.
    // (Features a browser does not know are logged as errors in its console, so only well-known ones.)
    "permissions-policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=()",
    // Old browsers that ignore frame-ancestors.
    "x-frame-options": "DENY",
  };
  // Two years, as the HSTS preload list asks; never over http, where it would be ignored or lock a site out.
  if (https) headers["strict-transport-security"] = "max-age=63072000; includeSubDomains";
  return headers;
}
