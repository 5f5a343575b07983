// Names shared by the proxy, the pages and the auth setup (no server-only code: the proxy imports this).

/** Better Auth's cookie prefix: the session cookie is "storage.session_token" (with __Secure- on https). */
export const COOKIE_PREFIX = "storage";
/** The path (and query) of a page request, set by proxy.ts, so that a page can send the visitor back after sign-in. */
export const PATH_HEADER = "x-storage-path";
