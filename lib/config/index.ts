import type { z } from "zod";
import { environment, SECRET_VARIABLES, type Environment } from "./variables";

// The dashboard's configuration, read from the environment in this one place (the lint rule in eslint.config.mjs
// keeps it so). Parsed on first use, not at import: `next build` imports the routes without the production
// environment. Not marked server-only: proxy.ts imports it through lib/http/security-headers.ts.

export type Config = {
  /** BETTER_AUTH_URL, else APP_URL: the public URL; unset, Better Auth takes each request's own origin. */
  appUrl: string | undefined;
  authSecret: string | null;
  trustProxy: boolean;
  /** ADMIN_EMAIL and ADMIN_PASSWORD, when both are set. */
  bootstrapAdmin: { email: string; password: string } | null;
  oidc: {
    /** Single sign-on is on when all three are set. */
    client: { issuerUrl: string; clientId: string; clientSecret: string } | null;
    displayName: string;
    scopes: string[];
    /** Lower case, without a leading @; empty: every domain. */
    allowedDomains: string[];
    groupsClaim: string;
    adminGroups: string[];
    /** Lower case. */
    adminEmails: string[];
  };
  coder: {
    /** The access URL without a trailing slash. */
    url: string | null;
    sessionToken: string | null;
    syncIntervalMs: number;
    /** Sign-in with Coder is on when CODER_URL and both of these are set. */
    oauth: { clientId: string; clientSecret: string } | null;
    adminRoles: string[];
    viewerRoles: string[];
  };
  database: {
    /** PostgreSQL; null: the embedded database in `dataDir`. */
    url: string | null;
    /** STORAGE_DATA_DIR as given; null: .data/pglite in the working directory (lib/db/index.ts). */
    dataDir: string | null;
    poolSize: number;
    /** 0: no limit. */
    statementTimeoutMs: number;
  };
  enrollmentKey: string | null;
  /** The scheduled backup (docs/backup.md): off (null) until STORAGE_BACKUP_DIR is set; the newest `keep` stay. */
  backup: { dir: string; keep: number } | null;
  cleanupScheduler: { enabled: boolean; intervalMs: number };
  /** This instance runs the maintenance task hourly; off where a scheduled job runs `npm run maintenance`. */
  maintenanceInProcess: boolean;
  /** Whose home volumes /metrics gives series of their own (docs/metrics.md): those at risk, or every one. */
  metricsVolumes: "at-risk" | "all";
  shutdownTimeoutMs: number;
  notify: NotifyConfig;
};

/** The owners' notices (docs/notifications.md): each channel is off (null) until configured. */
export type NotifyConfig = {
  email: { smtpUrl: string; from: string } | null;
  webhook: { url: string; secret: string | null } | null;
  /** The webhook may be on a loopback, private or link-local address. */
  allowPrivate: boolean;
  /**
   * The Notifications page's settings as the environment sets them (lib/validations/notify-settings.ts): a variable
   * set wins over the page's stored value; unset, the page's value (else the default) holds.
   */
  thresholds: {
    fillingDays?: number;
    fullPct?: number;
    digestHour?: number;
    maxPerHour?: number;
    growingFileGib?: number;
  };
};

/** The configuration is not valid: the message names each wrong variable, its value and what it should be. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`The configuration is not valid:\n${problems.map((p) => `  ${p}`).join("\n")}`);
    this.name = "ConfigError";
  }
}

const lower = (items: string[]) => items.map((s) => s.toLowerCase());

function shape(env: Environment): Config {
  const oidcClient =
    env.OIDC_ISSUER_URL && env.OIDC_CLIENT_ID && env.OIDC_CLIENT_SECRET
      ? { issuerUrl: env.OIDC_ISSUER_URL, clientId: env.OIDC_CLIENT_ID, clientSecret: env.OIDC_CLIENT_SECRET }
      : null;
  const coderOauth =
    env.CODER_URL && env.CODER_OAUTH2_CLIENT_ID && env.CODER_OAUTH2_CLIENT_SECRET
      ? { clientId: env.CODER_OAUTH2_CLIENT_ID, clientSecret: env.CODER_OAUTH2_CLIENT_SECRET }
      : null;
  return {
    appUrl: env.BETTER_AUTH_URL ?? env.APP_URL,
    authSecret: env.BETTER_AUTH_SECRET ?? null,
    trustProxy: env.TRUST_PROXY === "1",
    bootstrapAdmin:
      env.ADMIN_EMAIL && env.ADMIN_PASSWORD ? { email: env.ADMIN_EMAIL, password: env.ADMIN_PASSWORD } : null,
    oidc: {
      client: oidcClient,
      displayName: env.OIDC_DISPLAY_NAME ?? "Single sign-on",
      // Coder's own default; providers that send groups only on request need "openid,email,profile,groups".
      scopes: env.OIDC_SCOPES?.length ? env.OIDC_SCOPES : ["openid", "email", "profile"],
      allowedDomains: lower(env.OIDC_ALLOWED_DOMAINS ?? []).map((d) => d.replace(/^@/, "")),
      groupsClaim: env.OIDC_GROUPS_CLAIM ?? "groups",
      adminGroups: env.OIDC_ADMIN_GROUPS ?? [],
      adminEmails: lower(env.OIDC_ADMIN_EMAILS ?? []),
    },
    coder: {
      url: env.CODER_URL?.replace(/\/+$/, "") ?? null,
      sessionToken: env.CODER_SESSION_TOKEN ?? null,
      syncIntervalMs: (env.CODER_SYNC_INTERVAL ?? 300) * 1000,
      oauth: coderOauth,
      adminRoles: env.CODER_ADMIN_ROLES,
      viewerRoles: env.CODER_VIEWER_ROLES,
    },
    database: {
      url: env.DATABASE_URL ?? null,
      dataDir: env.STORAGE_DATA_DIR ?? null,
      poolSize: env.DATABASE_POOL_SIZE ?? 10,
      statementTimeoutMs: (env.DATABASE_STATEMENT_TIMEOUT ?? 30) * 1000,
    },
    enrollmentKey: env.STORAGE_ENROLLMENT_KEY ?? null,
    backup: env.STORAGE_BACKUP_DIR ? { dir: env.STORAGE_BACKUP_DIR, keep: env.STORAGE_BACKUP_KEEP ?? 7 } : null,
    cleanupScheduler: {
      enabled: env.STORAGE_CLEANUP_SCHEDULER !== "off",
      intervalMs: (env.STORAGE_CLEANUP_SCHEDULER_INTERVAL ?? 300) * 1000,
    },
    maintenanceInProcess: env.STORAGE_MAINTENANCE !== "off",
    metricsVolumes: env.STORAGE_METRICS_VOLUMES ?? "at-risk",
    shutdownTimeoutMs: (env.STORAGE_SHUTDOWN_TIMEOUT ?? 25) * 1000,
    notify: {
      email:
        env.STORAGE_SMTP_URL && env.STORAGE_NOTIFY_FROM
          ? { smtpUrl: env.STORAGE_SMTP_URL, from: env.STORAGE_NOTIFY_FROM }
          : null,
      webhook: env.STORAGE_NOTIFY_WEBHOOK_URL
        ? { url: env.STORAGE_NOTIFY_WEBHOOK_URL, secret: env.STORAGE_NOTIFY_WEBHOOK_SECRET ?? null }
        : null,
      allowPrivate: env.STORAGE_NOTIFY_WEBHOOK_ALLOW_PRIVATE === "1",
      thresholds: {
        fillingDays: env.STORAGE_NOTIFY_FILLING_DAYS,
        fullPct: env.STORAGE_NOTIFY_FULL_PERCENT,
        digestHour: env.STORAGE_NOTIFY_DIGEST_HOUR,
        maxPerHour: env.STORAGE_NOTIFY_MAX_PER_HOUR,
        growingFileGib: env.STORAGE_NOTIFY_GROWING_FILE_GIB,
      },
    },
  };
}

/** What a variable holds, fit for a log: secrets hidden, a database URL without its password. */
function shown(name: string, value: string | undefined): string {
  if (value === undefined) return "unset";
  if (SECRET_VARIABLES.has(name)) return "set (value hidden)";
  return JSON.stringify(value.replace(/(\/\/[^/@:]*:)[^/@]*@/, "$1***@"));
}

function problems(env: Record<string, string | undefined>, issues: z.core.$ZodIssue[]): string[] {
  return issues.map((issue) => {
    const name = String(issue.path[0]);
    return `${name} is ${shown(name, env[name])}: ${issue.message}`;
  });
}

/** Settings that only work together: half of them is a mistake, not a choice. */
function incomplete(env: Environment): string[] {
  const groups = [
    ["OIDC_ISSUER_URL", "OIDC_CLIENT_ID", "OIDC_CLIENT_SECRET"],
    ["CODER_OAUTH2_CLIENT_ID", "CODER_OAUTH2_CLIENT_SECRET"],
    ["STORAGE_SMTP_URL", "STORAGE_NOTIFY_FROM"],
  ] as const;
  const out: string[] = [];
  for (const names of groups) {
    const set = names.filter((n) => env[n] !== undefined);
    if (set.length && set.length < names.length) {
      const missing = names.filter((n) => env[n] === undefined);
      out.push(
        `${set.join(" and ")} ${set.length > 1 ? "are" : "is"} set but ${missing.join(" and ")} not: set all or none`,
      );
    }
  }
  if (env.CODER_OAUTH2_CLIENT_ID && !env.CODER_URL) {
    out.push("CODER_OAUTH2_CLIENT_ID is set but CODER_URL is not: sign-in with Coder needs Coder's access URL");
  }
  return out;
}

/** Reads and checks `env` (the process's environment by default); throws a ConfigError naming what is wrong. */
export function parseConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = environment.safeParse(env);
  if (!parsed.success) throw new ConfigError(problems(env, parsed.error.issues));
  const wrong = incomplete(parsed.data);
  if (wrong.length) throw new ConfigError(wrong);
  return shape(parsed.data);
}

let current: Config | undefined;

/** The configuration, parsed at the first call and kept for the life of the process. */
export function config(): Config {
  current ??= parseConfig();
  return current;
}

/** Tests that change the environment call this so that the next config() reads it again. */
export function resetConfigForTests(): void {
  current = undefined;
}
