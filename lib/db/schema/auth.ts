// Better Auth's tables (core, admin plugin, API-key plugin, database rate limiting), written to match the
// fields Better Auth expects so that they come through our own drizzle migrations. The adapter maps its
// model names (user, session, ...) to these tables in lib/auth/server.ts; Better Auth checks the match at start.
import {
  bigint,
  boolean,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";

const at = (name: string) => timestamp(name, { withTimezone: true });

export const users = pgTable("users", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  email: text("email").notNull().unique(),
  emailVerified: boolean("email_verified").notNull().default(false),
  image: text("image"),
  createdAt: at("created_at").notNull().defaultNow(),
  updatedAt: at("updated_at").notNull().defaultNow(),
  // Admin plugin: the role ("member" | "viewer" | "admin") and the ban that disables an account.
  role: text("role").notNull().default("viewer"),
  /**
   * The Coder username of a user who signs in with Coder, written at every such sign-in: a member sees the
   * workspaces whose owner is this name.
   */
  coderUsername: text("coder_username"),
  banned: boolean("banned").default(false),
  banReason: text("ban_reason"),
  banExpires: at("ban_expires"),
});

export const sessions = pgTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    token: text("token").notNull().unique(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    expiresAt: at("expires_at").notNull(),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
    impersonatedBy: text("impersonated_by"),
    createdAt: at("created_at").notNull().defaultNow(),
    updatedAt: at("updated_at").notNull().defaultNow(),
  },
  (t) => [index("sessions_user_idx").on(t.userId)],
);

/** Sign-in methods of a user: "credential" (scrypt password hash) or an OIDC provider's subject. */
export const accounts = pgTable(
  "accounts",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    accountId: text("account_id").notNull(),
    providerId: text("provider_id").notNull(),
    accessToken: text("access_token"),
    refreshToken: text("refresh_token"),
    idToken: text("id_token"),
    accessTokenExpiresAt: at("access_token_expires_at"),
    refreshTokenExpiresAt: at("refresh_token_expires_at"),
    scope: text("scope"),
    password: text("password"),
    createdAt: at("created_at").notNull().defaultNow(),
    updatedAt: at("updated_at").notNull().defaultNow(),
  },
  (t) => [index("accounts_user_idx").on(t.userId)],
);

/** One-time values: OAuth state, password-reset (invitation) tokens. */
export const verifications = pgTable(
  "verifications",
  {
    id: text("id").primaryKey(),
    identifier: text("identifier").notNull(),
    value: text("value").notNull(),
    expiresAt: at("expires_at").notNull(),
    createdAt: at("created_at").notNull().defaultNow(),
    updatedAt: at("updated_at").notNull().defaultNow(),
  },
  (t) => [index("verifications_identifier_idx").on(t.identifier)],
);

/** Dashboard API tokens (API-key plugin): only the hash of the key is stored; the role is in `permissions`. */
export const apiKeys = pgTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    configId: text("config_id").notNull().default("default"),
    name: text("name"),
    start: text("start"),
    prefix: text("prefix"),
    key: text("key").notNull(),
    referenceId: text("reference_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    refillInterval: integer("refill_interval"),
    refillAmount: integer("refill_amount"),
    lastRefillAt: at("last_refill_at"),
    enabled: boolean("enabled").default(true),
    rateLimitEnabled: boolean("rate_limit_enabled").default(false),
    rateLimitTimeWindow: integer("rate_limit_time_window"),
    rateLimitMax: integer("rate_limit_max"),
    requestCount: integer("request_count").default(0),
    remaining: integer("remaining"),
    lastRequest: at("last_request"),
    expiresAt: at("expires_at"),
    createdAt: at("created_at").notNull().defaultNow(),
    updatedAt: at("updated_at").notNull().defaultNow(),
    permissions: text("permissions"),
    metadata: text("metadata"),
  },
  (t) => [
    uniqueIndex("api_keys_key_idx").on(t.key),
    index("api_keys_reference_idx").on(t.referenceId),
    index("api_keys_config_idx").on(t.configId),
  ],
);

/** Better Auth's rate limiter, kept in the database so that every app instance counts the same attempts. */
export const rateLimits = pgTable("rate_limits", {
  id: text("id").primaryKey(),
  key: text("key").notNull().unique(),
  count: integer("count").notNull(),
  lastRequest: bigint("last_request", { mode: "number" }).notNull(),
});

/**
 * Failed password sign-ins, counted before each password is checked (lib/auth/sign-in-limit.ts): per account
 * (`account|<email>`) and per account and address (`pair|<email>|<address>`). Our own table: Better Auth prunes
 * its rate-limit rows after its own shortest windows.
 */
export const signInFailures = pgTable(
  "sign_in_failures",
  {
    key: text("key").primaryKey(),
    failures: integer("failures").notNull(),
    lastAt: at("last_at").notNull(),
  },
  (t) => [index("sign_in_failures_last_at_idx").on(t.lastAt)],
);

/** Where each account signed in with its password before: there, its owner is not held up by others' guesses. */
export const signInPlaces = pgTable(
  "sign_in_places",
  {
    email: text("email").notNull(),
    address: text("address").notNull(),
    lastAt: at("last_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.email, t.address] }), index("sign_in_places_last_at_idx").on(t.lastAt)],
);
