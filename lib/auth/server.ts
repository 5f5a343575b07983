import "server-only";
import { randomBytes } from "node:crypto";
import { apiKey } from "@better-auth/api-key";
import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { admin, genericOAuth } from "better-auth/plugins";
import { createAccessControl } from "better-auth/plugins/access";
import { adminAc, defaultStatements } from "better-auth/plugins/admin/access";
import { config } from "@/lib/config";
import { getDb, type Db } from "@/lib/db";
import { getOrCreateSetting } from "@/lib/db/queries/settings";
import { accounts, apiKeys, rateLimits, sessions, users, verifications } from "@/lib/db/schema";
import { authLog } from "./auth-log";
import { authDatabaseHooks, authHooks } from "./hooks";
import { coderCallbackProblem, coderProvider, coderSignInConfigured } from "./coder";
import { coderDiscovery, type CoderDiscovery } from "./coder-discovery";
import { oidcProvider } from "./oidc";
import { addressedOrigins, CLIENT_IP_HEADER } from "./client-ip";

/** The public URL of the app when configured; Better Auth otherwise takes it from each request. */
export const appUrl = () => config().appUrl;

/**
 * Said once when the server starts (instead of Better Auth's warning from every instance): what to set, or a callback
 * URL that Coder would refuse.
 */
export function baseUrlNotice(): string | null {
  if (appUrl()) return coderSignInConfigured() ? coderCallbackProblem(appUrl()) : null;
  return (
    "[auth] BETTER_AUTH_URL is not set: sign-in uses each request's own origin, which is enough behind one address " +
    "over http. Single sign-on (its callback URL) and Secure cookies need it: set BETTER_AUTH_URL (or APP_URL) to " +
    "the dashboard's public URL, e.g. https://storage.example.com."
  );
}

const ac = createAccessControl(defaultStatements);

export const API_TOKEN_PREFIX = "sdt_";
const DAY = 24 * 60 * 60;

function createAuth(db: Db, secret: string, coderFound: CoderDiscovery | null) {
  const url = appUrl();
  const oidc = oidcProvider();
  const coder = coderProvider(coderFound);
  const providers = [oidc, coder].filter((p) => p !== null);
  return betterAuth({
    appName: "Workspace storage",
    baseURL: url,
    ...(url ? {} : { trustedOrigins: addressedOrigins }),
    secret,
    telemetry: { enabled: false },
    logger: { log: authLog },
    database: drizzleAdapter(db, {
      provider: "pg",
      schema: {
        user: users,
        session: sessions,
        account: accounts,
        verification: verifications,
        apikey: apiKeys,
        rateLimit: rateLimits,
      },
    }),
    // Written by the sign-in hooks only (never from a request body): a member's Coder username.
    user: { additionalFields: { coderUsername: { type: "string", required: false, input: false } } },
    // Accounts are made by admins (or by single sign-on), never by signing up.
    emailAndPassword: {
      enabled: true,
      disableSignUp: true,
      minPasswordLength: 8,
      maxPasswordLength: 128,
      revokeSessionsOnPasswordReset: true,
    },
    // Every request reads the session from the database (no cookie cache): a disabled user or a changed role
    // takes effect on the very next request.
    session: { expiresIn: 7 * DAY, updateAge: DAY, cookieCache: { enabled: false } },
    // An OIDC sign-in with a verified email links to the account of that email. Coder is not trusted so: it keeps no
    // verified flag (its user info says unverified), so only the Coder user id links (the account kept under it).
    account: { accountLinking: { enabled: true, trustedProviders: oidc ? [oidc.providerId] : [] } },
    rateLimit: {
      enabled: true,
      // Shared by every app instance on one PostgreSQL; per address and path.
      storage: "database",
      window: 60,
      max: 120,
      customRules: { "/sign-in/email": { window: 60, max: 10 }, "/sign-in/social": { window: 60, max: 20 } },
    },
    advanced: {
      cookiePrefix: "storage",
      // Secure whenever the configured URL is https; SameSite=Lax and httpOnly always. Without a configured URL
      // the scheme is unknown, and a Secure cookie on a plain-http deployment would never come back.
      useSecureCookies: url ? url.startsWith("https://") : false,
      defaultCookieAttributes: { httpOnly: true, sameSite: "lax" },
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
    },
    plugins: [
      admin({
        defaultRole: "viewer",
        adminRoles: ["admin"],
        // Our three roles; the plugin's own user-management endpoints are not mounted (app/api/auth).
        ac,
        roles: {
          admin: ac.newRole(adminAc.statements),
          viewer: ac.newRole({ user: [], session: [] }),
          member: ac.newRole({ user: [], session: [] }),
        },
        bannedUserMessage: "This account is disabled. Ask an admin to enable it.",
      }),
      apiKey({
        defaultPrefix: API_TOKEN_PREFIX,
        requireName: true,
        maximumNameLength: 64,
        startingCharactersConfig: { shouldStore: true, charactersLength: API_TOKEN_PREFIX.length + 6 },
        // Scripts poll the API: the plugin's default of 10 requests a day would lock them out.
        rateLimit: { enabled: false },
        keyExpiration: { defaultExpiresIn: null, minExpiresIn: 1, maxExpiresIn: 3650 },
      }),
      genericOAuth({ config: providers }),
    ],
    databaseHooks: authDatabaseHooks(db),
    hooks: authHooks(db),
  });
}

export type Auth = ReturnType<typeof createAuth>;

// One Better Auth instance per database (tests swap databases; the app has one), made once, and made again when
// Coder's provider, missing when it was made, is discovered later.
type Made = { auth: Auth; withCoder: boolean };
const instances = new WeakMap<Db, Promise<Made>>();

/** The secret that signs cookies: BETTER_AUTH_SECRET, or one generated at first start and kept in settings. */
export async function authSecret(db: Db): Promise<string> {
  const fromEnv = config().authSecret;
  if (fromEnv) return fromEnv;
  return getOrCreateSetting(db, "auth_secret", () => randomBytes(32).toString("base64url"));
}

/** Coder's discovery document when Coder sign-in is configured (null until Coder's provider answers). */
async function discoverCoder(): Promise<CoderDiscovery | null> {
  const coderUrl = config().coder.url;
  return coderSignInConfigured() && coderUrl ? coderDiscovery(coderUrl) : null;
}

async function make(database: Db): Promise<Made> {
  const [secret, found] = await Promise.all([authSecret(database), discoverCoder()]);
  return { auth: createAuth(database, secret, found), withCoder: found !== null };
}

export async function getAuth(db?: Db): Promise<Auth> {
  const database = db ?? (await getDb());
  let made = instances.get(database);
  // Made without Coder: asked again on demand (lib/auth/coder-discovery.ts keeps the backoff).
  if (made && !(await made).withCoder && coderSignInConfigured() && (await discoverCoder())) made = undefined;
  if (!made) {
    made = make(database);
    instances.set(database, made);
    made.catch(() => instances.delete(database));
  }
  return (await made).auth;
}
