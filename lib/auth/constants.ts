// Names shared by the proxy, the pages and the auth setup (no server-only code: the proxy imports this).

/** Better Auth's cookie prefix: the session cookie is "storage.session_token" (with __Secure- on https). */
export const COOKIE_PREFIX = "storage";
/** The path (and query) of a page request, set by proxy.ts, so that a page can send the visitor back after sign-in. */
export const PATH_HEADER = "x-storage-path";
/** The page answer's CSP nonce, set by proxy.ts for the root layout (Next reads it from the policy itself). */
export const NONCE_HEADER = "x-nonce";
