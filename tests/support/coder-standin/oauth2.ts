// Coder as an OAuth2 provider, as its documentation describes it: RFC 8414 discovery, the authorization code grant
// with PKCE S256 required for every client, refresh tokens, revocation, opaque access tokens, and the signed-in
// user at /api/v2/users/me. OAuth2 only: no OpenID Connect, so a request for scope `openid` is refused
// (invalid_scope). Consent is given at once for the user the test picks with signInAs().
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type http from "node:http";
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
/** An app registered under Deployment Settings → OAuth2 Applications: its id, one secret, its callback URL. */
export type CoderOAuth2App = { clientId: string; clientSecret: string; redirectUri: string };

export type CoderOAuth2 = {
  handler: CoderHandler;
  /** The user whose browser session at Coder consents to the next authorization requests. */
  signInAs: (username: string | null) => void;
  /** Every token request's grant and outcome, for tests that check what a client sent. */
  tokenRequests: { grantType: string; error?: string }[];
};

// Grants and tokens hold the user itself, as Coder's hold the user id: a rename keeps them.
type Grant = { user: CoderUser; challenge: string; redirectUri: string; expiresAt: number };
type Token = { user: CoderUser; kind: "access" | "refresh"; expiresAt: number };

const CODE_TTL_MS = 10 * 60_000;
const ACCESS_TTL_S = 3600;
const opaque = (prefix: string) => `${prefix}_${randomBytes(24).toString("base64url")}`;
const s256 = (verifier: string) => createHash("sha256").update(verifier).digest("base64url");

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** An OAuth2 error at the token and revoke endpoints (RFC 6749 §5.2). */
function oauthError(res: http.ServerResponse, status: number, error: string, description: string) {
  sendJson(res, status, { error, error_description: description });
}

export function coderOAuth2(options: { app: CoderOAuth2App; users: CoderUser[] }): CoderOAuth2 {
  const { app } = options;
  const users = new Map(options.users.map((u) => [u.username, u]));
  const codes = new Map<string, Grant>();
  const tokens = new Map<string, Token>();
  const tokenRequests: CoderOAuth2["tokenRequests"] = [];
  let current: string | null = null;

  function metadata(base: string) {
    return {
      issuer: base,
      authorization_endpoint: `${base}/oauth2/authorize`,
      token_endpoint: `${base}/oauth2/tokens`,
      revocation_endpoint: `${base}/oauth2/revoke`,
      registration_endpoint: `${base}/oauth2/register`,
      response_types_supported: ["code"],
      grant_types_supported: ["authorization_code", "refresh_token"],
      code_challenge_methods_supported: ["S256"],
      scopes_supported: ["all", "application_connect"],
      token_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post"],
    };
  }

  function authorize(res: http.ServerResponse, url: URL) {
    const q = url.searchParams;
    // An unknown client or a callback other than the registered one is never redirected to (RFC 6749 §4.1.2.1).
    if (q.get("client_id") !== app.clientId) return sendCoderError(res, 400, "Invalid OAuth2 client.");
    const redirectUri = q.get("redirect_uri") ?? app.redirectUri;
    if (redirectUri !== app.redirectUri) {
      return sendCoderError(res, 400, "Invalid query params.", "redirect_uri does not match the registered callback");
    }
    const back = new URL(redirectUri);
    const state = q.get("state");
    const refuse = (error: string, description: string) => {
      back.searchParams.set("error", error);
      back.searchParams.set("error_description", description);
      if (state !== null) back.searchParams.set("state", state);
      res.writeHead(302, { location: back.toString() }).end();
    };
    if (q.get("response_type") !== "code") return refuse("unsupported_response_type", "only code is supported");
    const scopes = (q.get("scope") ?? "").split(/[\s+]+/).filter(Boolean);
    if (scopes.includes("openid")) return refuse("invalid_scope", "openid is not supported: this is OAuth2 only");
    const challenge = q.get("code_challenge");
    if (!challenge) return refuse("invalid_request", "code_challenge is required (PKCE)");
    if (q.get("code_challenge_method") !== "S256")
      return refuse("invalid_request", "code_challenge_method must be S256");
    // Coder sends a browser without a session to its login page; the stand-in has no login page.
    const user = current === null ? undefined : users.get(current);
    if (!user) return sendCoderError(res, 401, "You must be logged in to authorize an application.");
    const code = opaque("coder_code");
    codes.set(code, { user, challenge, redirectUri, expiresAt: Date.now() + CODE_TTL_MS });
    back.searchParams.set("code", code);
    if (state !== null) back.searchParams.set("state", state);
    res.writeHead(302, { location: back.toString() }).end();
  }

  /** The client, by client_secret_basic or client_secret_post; false when neither proves it is the app. */
  function client(req: http.IncomingMessage, form: URLSearchParams): boolean {
    const header = req.headers.authorization;
    if (header?.startsWith("Basic ")) {
      const decoded = Buffer.from(header.slice(6), "base64").toString("utf8");
      const at = decoded.indexOf(":");
      const id = decodeURIComponent(decoded.slice(0, at));
      const secret = decodeURIComponent(decoded.slice(at + 1));
      return at > 0 && id === app.clientId && sameSecret(secret, app.clientSecret);
    }
    const id = form.get("client_id");
    const secret = form.get("client_secret");
    return id === app.clientId && secret !== null && sameSecret(secret, app.clientSecret);
  }

  function issue(res: http.ServerResponse, user: CoderUser) {
    const access = opaque("coder_at");
    const refresh = opaque("coder_rt");
    tokens.set(access, { user, kind: "access", expiresAt: Date.now() + ACCESS_TTL_S * 1000 });
    tokens.set(refresh, { user, kind: "refresh", expiresAt: Date.now() + 30 * 24 * 3600_000 });
    res.setHeader("cache-control", "no-store");
    sendJson(res, 200, {
      access_token: access,
      token_type: "Bearer",
      expires_in: ACCESS_TTL_S,
      refresh_token: refresh,
    });
  }

  async function token(req: http.IncomingMessage, res: http.ServerResponse, url: URL) {
    const form = new URLSearchParams(await readBody(req));
    const grantType = form.get("grant_type") ?? "";
    const fail = (status: number, error: string, description: string) => {
      tokenRequests.push({ grantType, error });
      oauthError(res, status, error, description);
    };
    if (url.searchParams.has("client_secret")) {
      return fail(400, "invalid_request", "client_secret is not accepted in the query string");
    }
    if (!client(req, form)) return fail(401, "invalid_client", "client authentication failed");
    if (grantType === "authorization_code") {
      const code = form.get("code") ?? "";
      const grant = codes.get(code);
      codes.delete(code); // one use, whatever the outcome
      if (!grant || grant.expiresAt < Date.now()) return fail(400, "invalid_grant", "the code is invalid or expired");
      if ((form.get("redirect_uri") ?? grant.redirectUri) !== grant.redirectUri) {
        return fail(400, "invalid_grant", "redirect_uri does not match the authorization request");
      }
      const verifier = form.get("code_verifier");
      if (!verifier || !sameSecret(s256(verifier), grant.challenge)) {
        return fail(400, "invalid_grant", "the PKCE code_verifier does not match the code_challenge");
      }
      tokenRequests.push({ grantType });
      return issue(res, grant.user);
    }
    if (grantType === "refresh_token") {
      const refresh = form.get("refresh_token") ?? "";
      const held = tokens.get(refresh);
      if (!held || held.kind !== "refresh" || held.expiresAt < Date.now()) {
        return fail(400, "invalid_grant", "the refresh token is invalid or expired");
      }
      tokens.delete(refresh); // rotated
      tokenRequests.push({ grantType });
      return issue(res, held.user);
    }
    return fail(400, "unsupported_grant_type", "only authorization_code and refresh_token are supported");
  }

  async function revoke(req: http.IncomingMessage, res: http.ServerResponse) {
    const form = new URLSearchParams(await readBody(req));
    if (!client(req, form)) return oauthError(res, 401, "invalid_client", "client authentication failed");
    // RFC 7009 §2.2: an unknown token is not an error.
    tokens.delete(form.get("token") ?? "");
    res.writeHead(200).end();
  }

  function me(req: http.IncomingMessage, res: http.ServerResponse) {
    const header = req.headers.authorization;
    const key = header?.startsWith("Bearer ")
      ? header.slice(7)
      : (req.headers["coder-session-token"] as string | undefined);
    if (!key) return sendCoderError(res, 401, "Cookie or header must be provided.");
    const held = tokens.get(key);
    if (!held || held.kind !== "access" || held.expiresAt < Date.now()) {
      return sendCoderError(res, 401, "API key is invalid.");
    }
    const user = held.user;
    if (user.status === "suspended") {
      return sendCoderError(
        res,
        401,
        `User is not active (status = "${user.status}"). Contact an admin to reactivate your account.`,
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
    if (route === "GET /.well-known/oauth-authorization-server") {
      sendJson(res, 200, metadata(url.origin));
      return true;
    }
    if (route === "GET /oauth2/authorize") authorize(res, url);
    else if (route === "POST /oauth2/tokens") await token(req, res, url);
    else if (route === "POST /oauth2/revoke") await revoke(req, res);
    else if (route === "GET /api/v2/users/me") me(req, res);
    else return false;
    return true;
  };

  return { handler, signInAs: (username) => (current = username), tokenRequests };
}
