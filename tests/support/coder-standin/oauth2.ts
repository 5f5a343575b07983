// Coder as an OAuth2 provider, as coder/coder's source has it (coderd/oauth2provider: metadata.go, authorize.go,
// tokens.go, revoke.go; coderd/httpmw: oauth2.go, apikey.go): RFC 8414 discovery, the authorization code grant
// with PKCE S256 required, a consent page at GET /oauth2/authorize that the browser's POST of the same URL
// approves, refresh tokens, revocation, and the signed-in user at /api/v2/users/me. OAuth2 only: no OpenID Connect.
// Unknown parameters at authorize and at the token endpoint are refused (httpapi's ErrorExcessParams). The client
// id is the app's UUID. With the provider off every route under /oauth2 and the discovery document answer 404
// "Route not found." (RequireOAuth2Provider). A release (see ./release.ts) says which of the later additions the
// deployment has: Basic client authentication, scopes_supported, Bearer tokens, the revocation route.
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type http from "node:http";
import { CURRENT_RELEASE, EXTERNAL_SCOPES, type CoderRelease } from "./release";
import { readBody, sendCoderError, sendJson, type CoderHandler } from "./server";

export type CoderRole = { name: string; display_name: string; organization_id: string };
export type CoderUser = {
  id: string;
  username: string;
  email: string;
  name: string;
  status: "active" | "suspended" | "dormant";
  roles: CoderRole[];
};
/** An app registered under Deployment Settings → OAuth2 Applications: its id (a UUID), a secret, its callback. */
export type CoderOAuth2App = { clientId: string; clientSecret: string; redirectUri: string };

export type CoderOAuth2 = {
  handler: CoderHandler;
  /** The user whose browser session at Coder sees the consent page and approves it. */
  signInAs: (username: string | null) => void;
  /** Coder's OAuth2 provider on (the default) or off (CODER_OAUTH2_PROVIDER_ENABLE=false, or a release without it). */
  setProviderEnabled: (on: boolean) => void;
  /** Which release the deployment runs. */
  setRelease: (release: CoderRelease) => void;
  /** Every token request's grant and outcome, and how the client authenticated. */
  tokenRequests: { grantType: string; clientAuth: "basic" | "post" | "none"; scope?: string; error?: string }[];
  /** Access tokens issued and not revoked (a revoked one no longer reads /users/me). */
  liveAccessTokens: () => string[];
  /** The scope of each authorization request, in order ("" when none was asked). */
  authorizeScopes: string[];
};

// Grants and tokens hold the user itself, as Coder's hold the user id: a rename keeps them.
type Grant = { user: CoderUser; challenge: string; redirectUri: string | null; expiresAt: number; scope: string };
type Token = { user: CoderUser; kind: "access" | "refresh"; expiresAt: number; pair: string };

const CODE_TTL_MS = 10 * 60_000;
const ACCESS_TTL_S = 24 * 3600;
const AUTHORIZE_PARAMS = [
  "response_type",
  "client_id",
  "redirect_uri",
  "scope",
  "state",
  "resource",
  "code_challenge",
  "code_challenge_method",
];
const TOKEN_PARAMS = [
  "grant_type",
  "client_id",
  "client_secret",
  "code",
  "redirect_uri",
  "refresh_token",
  "code_verifier",
  "resource",
  "device_code",
];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const PKCE = /^[A-Za-z0-9._~-]{43,128}$/;
// Coder's API keys are "<10-character id>-<22-character secret>"; refresh tokens carry the coder_ prefix.
const apiKey = () =>
  `${randomBytes(8).toString("hex").slice(0, 10)}-${randomBytes(16).toString("base64url").slice(0, 22)}`;
const opaque = (prefix: string) => `${prefix}_${randomBytes(24).toString("base64url")}`;
const s256 = (verifier: string) => createHash("sha256").update(verifier).digest("base64url");
const html = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** An OAuth2 error at the token and revoke endpoints (httpapi.WriteOAuth2Error). */
function oauthError(res: http.ServerResponse, status: number, error: string, description: string) {
  sendJson(res, status, { error, error_description: description });
}

export function coderOAuth2(options: { app: CoderOAuth2App; users: CoderUser[]; release?: CoderRelease }): CoderOAuth2 {
  const { app } = options;
  const users = new Map(options.users.map((u) => [u.username, u]));
  const codes = new Map<string, Grant>();
  const tokens = new Map<string, Token>();
  const csrf = new Map<string, string>(); // consent page token → username
  const tokenRequests: CoderOAuth2["tokenRequests"] = [];
  const authorizeScopes: string[] = [];
  let release = options.release ?? CURRENT_RELEASE;
  let enabled = true;
  let current: string | null = null;

  function metadata(base: string) {
    return {
      issuer: base,
      authorization_endpoint: `${base}/oauth2/authorize`,
      token_endpoint: `${base}/oauth2/tokens`,
      registration_endpoint: `${base}/oauth2/register`,
      ...(release.revoke ? { revocation_endpoint: `${base}/oauth2/revoke` } : {}),
      response_types_supported: ["code"],
      grant_types_supported: ["authorization_code", "refresh_token"],
      code_challenge_methods_supported: ["S256"],
      ...(release.scopesSupported ? { scopes_supported: EXTERNAL_SCOPES } : {}),
      token_endpoint_auth_methods_supported: release.basicClientAuth
        ? ["client_secret_basic", "client_secret_post"]
        : ["client_secret_post"],
    };
  }

  /** The app named by client_id (query, form, or Basic where the release reads it), or the error it answers. */
  function appOf(req: http.IncomingMessage, params: URLSearchParams, res: http.ServerResponse): boolean {
    let id = params.get("client_id") ?? "";
    const basic = req.headers.authorization?.startsWith("Basic ") ? req.headers.authorization.slice(6) : null;
    if (!id && basic && release.basicClientAuth) id = Buffer.from(basic, "base64").toString("utf8").split(":")[0];
    if (!id) return (oauthError(res, 400, "invalid_request", "Missing client_id parameter"), false);
    if (!UUID.test(id) || id.toLowerCase() !== app.clientId.toLowerCase()) {
      return (oauthError(res, 401, "invalid_client", "The client credentials are invalid"), false);
    }
    return true;
  }

  /** The authorize request's parameters, or null once an error page was answered. */
  function authorizeParams(res: http.ServerResponse, q: URLSearchParams) {
    const problems: string[] = [];
    for (const k of q.keys())
      if (!AUTHORIZE_PARAMS.includes(k)) problems.push(`Query param "${k}" is not a valid query param`);
    for (const k of ["response_type", "client_id"]) if (!q.get(k)) problems.push(`Query param "${k}" is required`);
    const redirect = q.get("redirect_uri");
    if (redirect && redirect !== app.redirectUri)
      problems.push(`Query param "redirect_uri" must match the callback URL`);
    const challenge = q.get("code_challenge") ?? "";
    if (q.get("response_type") === "code" && !PKCE.test(challenge))
      problems.push(`Query param "code_challenge" is invalid`);
    if (problems.length) {
      res.writeHead(400, { "content-type": "text/html" });
      res.end(`<h1>Invalid Query Parameters</h1><ul>${problems.map((p) => `<li>${html(p)}</li>`).join("")}</ul>`);
      return null;
    }
    return { redirect, challenge, state: q.get("state"), scope: (q.get("scope") ?? "").trim() };
  }

  /** GET shows the consent page; POST (the page's form, with its CSRF token) makes the code. */
  async function authorize(req: http.IncomingMessage, res: http.ServerResponse, url: URL) {
    const q = url.searchParams;
    if (!appOf(req, q, res)) return;
    const p = authorizeParams(res, q);
    if (!p) return;
    const back = new URL(app.redirectUri);
    const toClient = (set: Record<string, string>) => {
      for (const [k, v] of Object.entries(set)) back.searchParams.set(k, v);
      if (p.state) back.searchParams.set("state", p.state);
      res.writeHead(302, { location: back.toString() }).end();
    };
    if (q.get("response_type") !== "code") {
      return toClient({
        error: "unsupported_response_type",
        error_description: "Only response_type=code is supported",
      });
    }
    const method = q.get("code_challenge_method") || (req.method === "POST" ? "S256" : "");
    if (method !== "S256")
      return toClient({ error: "invalid_request", error_description: "code_challenge_method must be S256" });
    const scopes = p.scope.split(/\s+/).filter(Boolean);
    // Before scopes were negotiated (coder/coder #19942) the scope was ignored; OpenID Connect was never spoken.
    const unknown = scopes.find((s) => s === "openid" || (release.scopesSupported && !EXTERNAL_SCOPES.includes(s)));
    if (unknown)
      return toClient({ error: "invalid_scope", error_description: `"${unknown}": unknown or unsupported scope` });
    // Coder sends a browser without a session to its login page; the stand-in has no login page.
    const user = current === null ? undefined : users.get(current);
    if (!user) return sendCoderError(res, 401, "You must be logged in to authorize an application.");
    if (req.method === "GET") {
      authorizeScopes.push(p.scope);
      const token = randomBytes(16).toString("hex");
      csrf.set(token, user.username);
      res.writeHead(200, { "content-type": "text/html" });
      return res.end(
        `<!doctype html><title>Authorize</title><p>Authorize the application to access your account, ${html(user.username)}?</p>` +
          `<form method="POST" action="${html(url.pathname + url.search)}"><input type="hidden" name="csrf_token" value="${token}">` +
          `<button type="submit">Allow</button></form>`,
      );
    }
    const form = new URLSearchParams(await readBody(req));
    const token = form.get("csrf_token") ?? "";
    if (csrf.get(token) !== user.username) return sendCoderError(res, 400, "CSRF token is missing or invalid.");
    csrf.delete(token);
    const code = opaque("coder");
    codes.set(code, {
      user,
      challenge: p.challenge,
      redirectUri: p.redirect,
      expiresAt: Date.now() + CODE_TTL_MS,
      scope: p.scope || "coder:all",
    });
    toClient({ code });
  }

  /** How the client proved itself: the secret in the form, or (where the release reads it) Basic. */
  function clientAuth(
    req: http.IncomingMessage,
    form: URLSearchParams,
  ): { how: "basic" | "post" | "none"; ok: boolean } {
    const header = req.headers.authorization;
    if (!form.get("client_secret") && header?.startsWith("Basic ") && release.basicClientAuth) {
      const decoded = Buffer.from(header.slice(6), "base64").toString("utf8");
      const at = decoded.indexOf(":");
      const secret = decodeURIComponent(decoded.slice(at + 1));
      return { how: "basic", ok: at > 0 && sameSecret(secret, app.clientSecret) };
    }
    const secret = form.get("client_secret");
    return { how: secret ? "post" : "none", ok: secret !== null && sameSecret(secret, app.clientSecret) };
  }

  function issue(res: http.ServerResponse, user: CoderUser) {
    const access = apiKey();
    const refresh = opaque("coder");
    const expiresAt = Date.now() + ACCESS_TTL_S * 1000;
    tokens.set(access, { user, kind: "access", expiresAt, pair: refresh });
    tokens.set(refresh, { user, kind: "refresh", expiresAt, pair: access });
    res.setHeader("cache-control", "no-store");
    // golang.org/x/oauth2's Token as JSON: `expiry` beside `expires_in`.
    sendJson(res, 200, {
      access_token: access,
      token_type: "Bearer",
      refresh_token: refresh,
      expiry: new Date(expiresAt).toISOString(),
      expires_in: ACCESS_TTL_S,
    });
  }

  async function token(req: http.IncomingMessage, res: http.ServerResponse, url: URL) {
    const form = new URLSearchParams(await readBody(req));
    // Go's ParseForm reads the query string and the form alike.
    for (const [k, v] of url.searchParams) form.append(k, v);
    const grantType = form.get("grant_type") ?? "";
    const auth = clientAuth(req, form);
    const fail = (status: number, error: string, description: string) => {
      tokenRequests.push({ grantType, clientAuth: auth.how, error });
      oauthError(res, status, error, description);
    };
    if (!appOf(req, form, res))
      return tokenRequests.push({ grantType, clientAuth: auth.how, error: "invalid_request" });
    if (grantType !== "authorization_code" && grantType !== "refresh_token") {
      return fail(400, "unsupported_grant_type", "The grant type is missing or unsupported");
    }
    const required =
      grantType === "refresh_token" ? ["refresh_token"] : ["code", "client_id", "client_secret", "redirect_uri"];
    // Since Basic client authentication, the secret may come in the header instead.
    const missing = required.find(
      (k) => !form.get(k) && !(auth.how === "basic" && ["client_id", "client_secret"].includes(k)),
    );
    if (missing) return fail(400, "invalid_request", `Missing required parameter: ${missing}`);
    if ([...form.keys()].some((k) => !TOKEN_PARAMS.includes(k))) {
      return fail(400, "invalid_request", "The request is missing required parameters or is otherwise malformed");
    }
    if (!auth.ok) return fail(401, "invalid_client", "The client credentials are invalid");
    if (grantType === "authorization_code") {
      if (form.get("redirect_uri") !== app.redirectUri) {
        return fail(400, "invalid_request", "The request is missing required parameters or is otherwise malformed");
      }
      const code = form.get("code") ?? "";
      const grant = codes.get(code);
      codes.delete(code); // one use, whatever the outcome
      if (!grant || grant.expiresAt < Date.now())
        return fail(400, "invalid_grant", "The authorization code is invalid or expired");
      const verifier = form.get("code_verifier") ?? "";
      if (!verifier || !sameSecret(s256(verifier), grant.challenge)) {
        return fail(400, "invalid_grant", "The PKCE code verifier is invalid");
      }
      tokenRequests.push({ grantType, clientAuth: auth.how, scope: grant.scope });
      return issue(res, grant.user);
    }
    const held = tokens.get(form.get("refresh_token") ?? "");
    if (!held || held.kind !== "refresh" || held.expiresAt < Date.now()) {
      return fail(400, "invalid_grant", "The refresh token is invalid or expired");
    }
    tokens.delete(held.pair);
    tokens.delete(form.get("refresh_token") ?? ""); // rotated
    tokenRequests.push({ grantType, clientAuth: auth.how });
    return issue(res, held.user);
  }

  async function revoke(req: http.IncomingMessage, res: http.ServerResponse) {
    const form = new URLSearchParams(await readBody(req));
    if (!appOf(req, form, res)) return;
    const value = form.get("token") ?? "";
    if (!value) return oauthError(res, 400, "invalid_request", "missing token parameter");
    // RFC 7009 §2.2: an unknown token is not an error. Revoking either half deletes the API key and its refresh.
    const held = tokens.get(value);
    if (held) tokens.delete(held.pair);
    tokens.delete(value);
    res.writeHead(200).end();
  }

  function me(req: http.IncomingMessage, res: http.ServerResponse) {
    const header = req.headers.authorization;
    const bearer = release.bearer && header?.startsWith("Bearer ") ? header.slice(7) : undefined;
    const key = (req.headers["coder-session-token"] as string | undefined) ?? bearer;
    if (!key)
      return sendCoderError(
        res,
        401,
        "You are signed out or your session has expired. Please sign in again to continue.",
        "Cookie or header must be provided.",
      );
    const held = tokens.get(key);
    if (!held || held.kind !== "access" || held.expiresAt < Date.now()) {
      return sendCoderError(
        res,
        401,
        "You are signed out or your session has expired. Please sign in again to continue.",
        "API key is invalid.",
      );
    }
    const user = held.user;
    // httpmw's API key check makes a dormant user active on any authenticated request (ActivateDormantUser).
    if (user.status === "dormant") user.status = "active";
    if (user.status === "suspended") {
      return sendCoderError(
        res,
        401,
        `User is not active (status = "suspended"). Contact an admin to reactivate your account.`,
      );
    }
    sendJson(res, 200, {
      ...user,
      avatar_url: "",
      created_at: "2026-01-01T00:00:00Z",
      last_seen_at: new Date().toISOString(),
      login_type: "password",
      organization_ids: ["00000000-0000-0000-0000-000000000001"],
    });
  }

  const handler: CoderHandler = async (req, res, url) => {
    const route = `${req.method} ${url.pathname}`;
    const gated = url.pathname.startsWith("/oauth2/") || url.pathname.startsWith("/.well-known/oauth-");
    if (gated && !enabled) return (sendCoderError(res, 404, "Route not found."), true);
    if (route === "GET /.well-known/oauth-authorization-server") sendJson(res, 200, metadata(url.origin));
    else if (route === "GET /oauth2/authorize" || route === "POST /oauth2/authorize") await authorize(req, res, url);
    else if (route === "POST /oauth2/tokens") await token(req, res, url);
    else if (route === "POST /oauth2/revoke" && release.revoke) await revoke(req, res);
    else if (route === "GET /api/v2/users/me") me(req, res);
    else return false;
    return true;
  };

  return {
    handler,
    signInAs: (username) => (current = username),
    setProviderEnabled: (on) => (enabled = on),
    setRelease: (r) => (release = r),
    tokenRequests,
    authorizeScopes,
    liveAccessTokens: () => [...tokens].filter(([, t]) => t.kind === "access").map(([k]) => k),
  };
}

/** A browser at Coder: opens the consent page of `authorizeUrl` and presses Allow; Coder's answer (a redirect). */
export async function consent(authorizeUrl: URL | string): Promise<Response> {
  const page = await fetch(authorizeUrl, { redirect: "manual" });
  if (page.status !== 200) return page;
  const token = /name="csrf_token" value="([^"]+)"/.exec(await page.text())?.[1] ?? "";
  return fetch(authorizeUrl, { method: "POST", redirect: "manual", body: new URLSearchParams({ csrf_token: token }) });
}
