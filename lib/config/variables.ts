import { z } from "zod";

// Every environment variable the dashboard reads, with what a valid value is. A variable that is unset, empty or
// only spaces takes its default (the two Coder role lists aside: there an empty value means "no role").
// Each rule's message says what is expected; lib/config/index.ts puts the variable's name and value before it.

const blank = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);
const optional = <T extends z.ZodType>(schema: T) => z.preprocess(blank, schema.optional());

const text = () => optional(z.string());

/** The shortest STORAGE_ENROLLMENT_KEY accepted (a generated key has 43 random characters after its prefix). */
export const ENROLLMENT_KEY_MIN_LENGTH = 24;

/** A number read the way Number() reads it (so " 30 " and "3e1" still count), kept only if `valid`. */
const number = (expected: string, valid: (n: number) => boolean) =>
  optional(
    z
      .string()
      .transform(Number)
      .refine((n) => Number.isFinite(n) && valid(n), { error: expected }),
  );
const wholeNumber = (min: number, max: number, expected: string) =>
  number(expected, (n) => Number.isInteger(n) && n >= min && n <= max);

const httpUrl = (example: string) =>
  optional(
    z
      .string()
      .trim()
      .pipe(z.url({ protocol: /^https?$/, error: `expected an http:// or https:// URL, e.g. ${example}` })),
  );

/** A comma-separated list; spaces around the items and empty items are dropped. */
const split = (v: string) =>
  v
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
const list = () => optional(z.string().transform(split));
/** Unlike list(): set but empty is a list of nothing, not the default. */
const listOrNone = (fallback: string) =>
  z
    .string()
    .optional()
    .transform((v) => split(v ?? fallback));

const oneOf = <const T extends readonly [string, ...string[]]>(values: T, expected: string) =>
  optional(z.enum(values, { error: expected }));

export const environment = z.object({
  // The dashboard's public URL.
  BETTER_AUTH_URL: httpUrl("https://storage.example.com"),
  APP_URL: httpUrl("https://storage.example.com"),
  BETTER_AUTH_SECRET: text(),
  TRUST_PROXY: oneOf(
    ["0", "1"],
    "expected 1 (a reverse proxy in front sets X-Forwarded-For, -Host and -Proto) or 0 (the default)",
  ),
  ADMIN_EMAIL: optional(
    z
      .string()
      .trim()
      .toLowerCase()
      .pipe(z.email({ error: "expected an email address" })),
  ),
  ADMIN_PASSWORD: text(),

  OIDC_ISSUER_URL: httpUrl("https://idp.example.com/realms/main"),
  OIDC_CLIENT_ID: text(),
  OIDC_CLIENT_SECRET: text(),
  OIDC_DISPLAY_NAME: text(),
  OIDC_SCOPES: list(),
  OIDC_ALLOWED_DOMAINS: list(),
  OIDC_GROUPS_CLAIM: text(),
  OIDC_ADMIN_GROUPS: list(),
  OIDC_ADMIN_EMAILS: list(),

  CODER_URL: httpUrl("https://coder.example.com"),
  CODER_SESSION_TOKEN: optional(z.string().trim()),
  CODER_SYNC_INTERVAL: wholeNumber(10, 86_400, "expected a whole number of seconds from 10 to 86400"),
  CODER_OAUTH2_CLIENT_ID: text(),
  CODER_OAUTH2_CLIENT_SECRET: text(),
  CODER_ADMIN_ROLES: listOrNone("owner"),
  CODER_VIEWER_ROLES: listOrNone("auditor,user-admin,template-admin"),

  DATABASE_URL: optional(
    z.string().regex(/^(postgres|postgresql|socket):/i, {
      error: "expected a PostgreSQL connection URL, e.g. postgres://user:password@host:5432/database",
    }),
  ),
  DATABASE_POOL_SIZE: wholeNumber(1, 10_000, "expected a whole number of connections, at least 1"),
  DATABASE_STATEMENT_TIMEOUT: number("expected a number of seconds, 0 or more (0: no limit)", (n) => n >= 0),
  STORAGE_DATA_DIR: text(),
  STORAGE_BACKUP_DIR: text(),
  STORAGE_BACKUP_KEEP: wholeNumber(1, 10_000, "expected a whole number of backups to keep, at least 1"),

  // Guessable when short: the key alone lets a caller enroll workspaces and write their "cannot report" reasons.
  STORAGE_ENROLLMENT_KEY: optional(
    z.string().min(ENROLLMENT_KEY_MIN_LENGTH, {
      error: `expected at least ${ENROLLMENT_KEY_MIN_LENGTH} characters (random, e.g. from openssl rand -hex 24)`,
    }),
  ),
  STORAGE_MAINTENANCE: oneOf(["on", "off"], "expected off (maintenance run by a scheduled job instead) or on"),
  STORAGE_CLEANUP_SCHEDULER: oneOf(["on", "off"], "expected off (no scheduled cleanup in this instance) or on"),
  STORAGE_CLEANUP_SCHEDULER_INTERVAL: wholeNumber(1, 3600, "expected a whole number of seconds from 1 to 3600"),
  STORAGE_METRICS_VOLUMES: oneOf(
    ["at-risk", "all"],
    "expected at-risk (series only for the volumes full or filling, the default) or all (every workspace's volume)",
  ),
  STORAGE_SHUTDOWN_TIMEOUT: number("expected a number of seconds above 0", (n) => n > 0),

  STORAGE_SMTP_URL: optional(
    z
      .string()
      .trim()
      .pipe(
        z.url({
          protocol: /^smtps?$/,
          error: "expected an smtp:// or smtps:// URL, e.g. smtp://user:password@mail.example.com:587",
        }),
      ),
  ),
  STORAGE_NOTIFY_FROM: optional(
    z
      .string()
      .trim()
      .pipe(z.email({ error: "expected an email address" })),
  ),
  STORAGE_NOTIFY_DIGEST_HOUR: wholeNumber(0, 23, "expected an hour of the day in UTC, from 0 to 23"),
  STORAGE_NOTIFY_WEBHOOK_URL: httpUrl("https://chat.example.com/hooks/abc123"),
  STORAGE_NOTIFY_WEBHOOK_SECRET: text(),
  STORAGE_NOTIFY_WEBHOOK_ALLOW_PRIVATE: oneOf(
    ["0", "1"],
    "expected 1 (the webhook may be on a private, loopback or link-local address) or 0 (the default)",
  ),
  STORAGE_NOTIFY_MAX_PER_HOUR: wholeNumber(1, 1_000_000, "expected a whole number of messages an hour, at least 1"),
  STORAGE_NOTIFY_FILLING_DAYS: wholeNumber(1, 365, "expected a whole number of days from 1 to 365"),
  STORAGE_NOTIFY_FULL_PERCENT: wholeNumber(50, 100, "expected a whole percentage from 50 to 100"),
  STORAGE_NOTIFY_GROWING_FILE_GIB: wholeNumber(1, 1024, "expected a whole number of GiB from 1 to 1024"),
});

export type Environment = z.infer<typeof environment>;

/** Variables whose values never appear in an error message. */
export const SECRET_VARIABLES = new Set([
  "BETTER_AUTH_SECRET",
  "ADMIN_PASSWORD",
  "OIDC_CLIENT_SECRET",
  "CODER_SESSION_TOKEN",
  "CODER_OAUTH2_CLIENT_SECRET",
  "STORAGE_ENROLLMENT_KEY",
  // A chat's incoming webhook URL is its credential.
  "STORAGE_NOTIFY_WEBHOOK_URL",
  "STORAGE_NOTIFY_WEBHOOK_SECRET",
]);
