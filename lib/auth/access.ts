import "server-only";
import { eq } from "drizzle-orm";
import { getDb, type Db } from "@/lib/db";
import type { Who } from "@/lib/db/queries/audit";
import { coderUsernameOf } from "@/lib/db/queries/owner-cleanup";
import { users } from "@/lib/db/schema";
import { ForbiddenError, UnauthorizedError } from "@/lib/errors";
import { authenticateWorkspace, checkEnrollmentKeyFrom } from "@/lib/enrollment/workspaces";
import { bearerToken } from "@/lib/http/request";
import { hasRole, storedRole, type Role } from "@/lib/validations/auth";
import { verifyApiToken } from "./api-tokens";
import { actingUserId, scopeOf, type Caller } from "./caller";
import { addressedOrigins, clientIp, requestOrigin } from "./client-ip";
import { appUrl, getAuth } from "./server";

/** `who`: the caller as the audit entries of the changes it makes name it. */
export type Access = { caller: Caller; db: Db; ip: string | null; userAgent: string | null; who: Who };

const NO_CREDENTIALS = "Sign in, or send an API token as Authorization: Bearer <token>.";
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Refuses a state-changing request that a browser sent from another site (CSRF): by Sec-Fetch-Site when the
 * browser sends it, else by Origin. A script with a bearer token and no cookies is not a browser session and
 * cannot be forged cross-site, so it passes.
 */
export function checkSameSite(request: Request): void {
  if (SAFE_METHODS.has(request.method)) return;
  if (bearerToken(request) && !request.headers.get("cookie")) return;
  const site = request.headers.get("sec-fetch-site");
  if (site && site !== "same-origin" && site !== "none") {
    throw new ForbiddenError("Cross-site requests may not change anything here.");
  }
  const origin = request.headers.get("origin");
  if (origin) {
    const configured = appUrl();
    const allowed = [...addressedOrigins(request), ...(configured ? [new URL(configured).origin] : [])];
    if (!allowed.includes(origin)) throw new ForbiddenError(`Requests from ${origin} may not change anything here.`);
  }
}

/** The signed-in user behind a request's session cookie, read fresh from the database (role, disabled). */
export async function sessionCaller(db: Db, headers: Headers): Promise<Caller | null> {
  if (!headers.get("cookie")) return null;
  const auth = await getAuth(db);
  const session = await auth.api.getSession({ headers, query: { disableCookieCache: true } });
  if (!session) return null;
  // The session row is joined to the user as it is now: a role change or a disable takes effect at once.
  const [user] = await db
    .select({
      id: users.id,
      email: users.email,
      name: users.name,
      role: users.role,
      banned: users.banned,
      coderUsername: users.coderUsername,
    })
    .from(users)
    .where(eq(users.id, session.user.id));
  if (!user || user.banned) return null;
  const role = storedRole(user.role);
  return {
    kind: "user",
    id: user.id,
    label: user.email,
    name: user.name,
    role,
    scope: scopeOf(role, user.coderUsername),
  };
}

/**
 * The one authorization check of every protected route handler, made before the body is read: 401 (in the
 * error envelope, never a redirect) without valid credentials, 403 for a role too low or a cross-site
 * mutation.
 */
export async function requireCaller(request: Request, needed: Role): Promise<Access> {
  checkSameSite(request);
  const token = bearerToken(request);
  // No credentials at all: refused without a database round trip.
  if (!token && !request.headers.get("cookie")) throw new UnauthorizedError(NO_CREDENTIALS);
  const db = await getDb();
  const caller = token ? await verifyApiToken(db, token) : await sessionCaller(db, request.headers);
  if (!caller) {
    throw new UnauthorizedError(token ? "The API token is not valid (unknown, revoked or expired)." : NO_CREDENTIALS);
  }
  if (!hasRole(caller.role, needed))
    throw new ForbiddenError(`This needs the ${needed} role; ${caller.label} is a ${caller.role}.`);
  const origin = requestOrigin(request.headers);
  return { caller, db, ...origin, who: { actor: auditActor(caller), ...origin } };
}

/**
 * The check of every route a workspace's reporter calls with its workspace token, made before the body is read:
 * the workspace the token belongs to; 401 without a valid one.
 */
export async function requireWorkspace(request: Request): Promise<{ db: Db; workspaceId: string }> {
  const db = await getDb();
  return { db, workspaceId: await authenticateWorkspace(db, bearerToken(request)) };
}

/**
 * Enrollment's check, made before the body is read: 401 unless the X-Enrollment-Key header is the fleet's key,
 * 429 once the caller's address sent too many wrong ones.
 */
export async function requireEnrollmentKey(request: Request): Promise<Db> {
  const db = await getDb();
  await checkEnrollmentKeyFrom(db, request.headers.get("x-enrollment-key"), clientIp(request.headers));
  return db;
}

/** The audit log's view of a caller. */
export function auditActor(caller: Caller) {
  return caller.kind === "user"
    ? { type: "user" as const, id: caller.id, label: caller.label }
    : { type: "token" as const, id: caller.id, label: caller.label };
}

/**
 * A caller acting as a workspace owner (My storage): any signed-in role, owning the workspaces whose Coder owner is
 * the acting user's Coder username (null: none, so every workspace answers 404).
 */
export async function requireOwner(request: Request): Promise<Access & { owner: string | null }> {
  const access = await requireCaller(request, "member");
  return { ...access, owner: await coderUsernameOf(access.db, actingUserId(access.caller)) };
}
