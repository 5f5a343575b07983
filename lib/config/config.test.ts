import { afterEach, describe, expect, it, vi } from "vitest";
import { config, ConfigError, parseConfig, resetConfigForTests } from "./index";

const problemsOf = (env: Record<string, string>) => {
  try {
    parseConfig(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as ConfigError).problems;
  }
  throw new Error("parsed without a problem");
};

describe("configuration", () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    resetConfigForTests();
  });

  it("runs with nothing set: the embedded database, no sign-in providers, the documented defaults", () => {
    expect(parseConfig({})).toEqual({
      appUrl: undefined,
      authSecret: null,
      trustProxy: false,
      bootstrapAdmin: null,
      oidc: {
        client: null,
        displayName: "Single sign-on",
        scopes: ["openid", "email", "profile"],
        allowedDomains: [],
        groupsClaim: "groups",
        adminGroups: [],
        adminEmails: [],
      },
      coder: {
        url: null,
        sessionToken: null,
        syncIntervalMs: 300_000,
        oauth: null,
        adminRoles: ["owner"],
        viewerRoles: ["auditor", "user-admin", "template-admin"],
      },
      database: { url: null, dataDir: null, poolSize: 10, statementTimeoutMs: 30_000 },
      enrollmentKey: null,
      backup: null,
      cleanupScheduler: { enabled: true, intervalMs: 300_000 },
      maintenanceInProcess: true,
      metricsVolumes: "at-risk",
      shutdownTimeoutMs: 25_000,
      notify: {
        email: null,
        webhook: null,
        allowPrivate: false,
        thresholds: { fillingDays: undefined, fullPct: undefined, digestHour: undefined, maxPerHour: undefined },
      },
    });
  });

  it("takes an empty value as unset, except in the Coder role lists, where it means no role", () => {
    const c = parseConfig({
      DATABASE_URL: "",
      DATABASE_STATEMENT_TIMEOUT: " ",
      OIDC_DISPLAY_NAME: "",
      CODER_ADMIN_ROLES: "",
      CODER_VIEWER_ROLES: " , ",
    });
    expect(c.database).toMatchObject({ url: null, statementTimeoutMs: 30_000 });
    expect(c.oidc.displayName).toBe("Single sign-on");
    expect(c.coder).toMatchObject({ adminRoles: [], viewerRoles: [] });
  });

  it("reads the values as the modules used them", () => {
    const c = parseConfig({
      APP_URL: "http://storage.internal",
      BETTER_AUTH_URL: "https://storage.example.com",
      TRUST_PROXY: "1",
      ADMIN_EMAIL: " Boot@Example.com ",
      ADMIN_PASSWORD: "a password",
      OIDC_ISSUER_URL: "https://idp.example.com/",
      OIDC_CLIENT_ID: "id",
      OIDC_CLIENT_SECRET: "secret",
      OIDC_ALLOWED_DOMAINS: "Example.com, @corp.example,",
      OIDC_ADMIN_EMAILS: "Boss@Example.com",
      CODER_URL: " https://coder.example.com// ",
      CODER_SESSION_TOKEN: " token ",
      CODER_SYNC_INTERVAL: "3600",
      DATABASE_STATEMENT_TIMEOUT: "0",
      STORAGE_CLEANUP_SCHEDULER: "off",
      STORAGE_CLEANUP_SCHEDULER_INTERVAL: "2",
      STORAGE_MAINTENANCE: "off",
      STORAGE_METRICS_VOLUMES: "all",
      STORAGE_SHUTDOWN_TIMEOUT: "2.5",
    });
    expect(c.appUrl).toBe("https://storage.example.com");
    expect(c.trustProxy).toBe(true);
    expect(c.bootstrapAdmin).toEqual({ email: "boot@example.com", password: "a password" });
    expect(c.oidc).toMatchObject({
      client: { issuerUrl: "https://idp.example.com/", clientId: "id", clientSecret: "secret" },
      allowedDomains: ["example.com", "corp.example"],
      adminEmails: ["boss@example.com"],
    });
    expect(c.coder).toMatchObject({
      url: "https://coder.example.com",
      sessionToken: "token",
      syncIntervalMs: 3_600_000,
    });
    expect(c.coder.oauth).toBeNull();
    expect(c.database.statementTimeoutMs).toBe(0);
    expect(c.cleanupScheduler).toEqual({ enabled: false, intervalMs: 2000 });
    expect(c.maintenanceInProcess).toBe(false);
    expect(c.metricsVolumes).toBe("all");
    expect(c.shutdownTimeoutMs).toBe(2500);
  });

  it("names each bad variable, what it holds and what it should hold", () => {
    const problems = problemsOf({
      TRUST_PROXY: "true",
      CODER_SYNC_INTERVAL: "5",
      STORAGE_CLEANUP_SCHEDULER_INTERVAL: "soon",
      DATABASE_POOL_SIZE: "0",
      STORAGE_SHUTDOWN_TIMEOUT: "-1",
      BETTER_AUTH_URL: "storage.example.com",
      STORAGE_CLEANUP_SCHEDULER: "false",
      ADMIN_EMAIL: "admin",
    });
    expect(problems).toEqual([
      'BETTER_AUTH_URL is "storage.example.com": expected an http:// or https:// URL, e.g. https://storage.example.com',
      'TRUST_PROXY is "true": expected 1 (a reverse proxy in front sets X-Forwarded-For, -Host and -Proto) or 0 (the default)',
      'ADMIN_EMAIL is "admin": expected an email address',
      'CODER_SYNC_INTERVAL is "5": expected a whole number of seconds from 10 to 86400',
      'DATABASE_POOL_SIZE is "0": expected a whole number of connections, at least 1',
      'STORAGE_CLEANUP_SCHEDULER is "false": expected off (no scheduled cleanup in this instance) or on',
      'STORAGE_CLEANUP_SCHEDULER_INTERVAL is "soon": expected a whole number of seconds from 1 to 3600',
      'STORAGE_SHUTDOWN_TIMEOUT is "-1": expected a number of seconds above 0',
    ]);
    expect(() => parseConfig({ TRUST_PROXY: "yes" })).toThrow(
      /^The configuration is not valid:\n {2}TRUST_PROXY is "yes"/,
    );
  });

  it("never shows a secret or a database password in its message", () => {
    const [problem] = problemsOf({ DATABASE_URL: "mysql://app:hunter2@db:3306/storage" });
    expect(problem).toBe(
      'DATABASE_URL is "mysql://app:***@db:3306/storage": expected a PostgreSQL connection URL, e.g. postgres://user:password@host:5432/database',
    );
    const [half] = problemsOf({ OIDC_CLIENT_SECRET: "hunter2" });
    expect(half).not.toContain("hunter2");
  });

  it("refuses an enrollment key shorter than 24 characters, naming the variable and not the key", () => {
    expect(problemsOf({ STORAGE_ENROLLMENT_KEY: "sek_short_but_23_chars!" })).toEqual([
      "STORAGE_ENROLLMENT_KEY is set (value hidden): expected at least 24 characters (random, e.g. from openssl rand -hex 24)",
    ]);
    expect(parseConfig({ STORAGE_ENROLLMENT_KEY: "sek_long_enough_24_chars" }).enrollmentKey).toBe(
      "sek_long_enough_24_chars",
    );
  });

  it("refuses half of a sign-in provider's settings", () => {
    expect(problemsOf({ OIDC_ISSUER_URL: "https://idp.example.com", OIDC_CLIENT_ID: "id" })).toEqual([
      "OIDC_ISSUER_URL and OIDC_CLIENT_ID are set but OIDC_CLIENT_SECRET not: set all or none",
    ]);
    expect(problemsOf({ CODER_OAUTH2_CLIENT_ID: "id", CODER_OAUTH2_CLIENT_SECRET: "secret" })).toEqual([
      "CODER_OAUTH2_CLIENT_ID is set but CODER_URL is not: sign-in with Coder needs Coder's access URL",
    ]);
    expect(
      parseConfig({
        CODER_URL: "https://coder.example.com",
        CODER_OAUTH2_CLIENT_ID: "id",
        CODER_OAUTH2_CLIENT_SECRET: "s",
      }).coder.oauth,
    ).toEqual({ clientId: "id", clientSecret: "s" });
  });

  it("refuses a notification channel's URL of the wrong form, naming the variable, never showing a secret", () => {
    expect(problemsOf({ STORAGE_SMTP_URL: "http://mail.example.com", STORAGE_NOTIFY_FROM: "a@example.com" })).toEqual([
      'STORAGE_SMTP_URL is "http://mail.example.com": expected an smtp:// or smtps:// URL, e.g. smtp://user:password@mail.example.com:587',
    ]);
    expect(problemsOf({ STORAGE_NOTIFY_WEBHOOK_URL: "ftp://hooks.example.com/T0/B0/secret" })).toEqual([
      "STORAGE_NOTIFY_WEBHOOK_URL is set (value hidden): expected an http:// or https:// URL, e.g. https://chat.example.com/hooks/abc123",
    ]);
    expect(problemsOf({ STORAGE_SMTP_URL: "smtp://mail.example.com" })).toEqual([
      "STORAGE_SMTP_URL is set but STORAGE_NOTIFY_FROM not: set all or none",
    ]);
    const c = parseConfig({
      STORAGE_SMTP_URL: "smtps://u:p@mail.example.com?requireTLS=true",
      STORAGE_NOTIFY_FROM: "storage@example.com",
      STORAGE_NOTIFY_WEBHOOK_URL: "https://chat.example.com/hooks/x",
      STORAGE_NOTIFY_WEBHOOK_SECRET: "s",
    }).notify;
    expect(c.email).toEqual({ smtpUrl: "smtps://u:p@mail.example.com?requireTLS=true", from: "storage@example.com" });
    expect(c.webhook).toEqual({ url: "https://chat.example.com/hooks/x", secret: "s" });
  });

  it("reads the environment once, at the first call, until a test resets it", () => {
    const [first, second] = ["first", "second"].map((s) => s.padEnd(24, "-"));
    vi.stubEnv("STORAGE_ENROLLMENT_KEY", first);
    resetConfigForTests();
    expect(config().enrollmentKey).toBe(first);
    vi.stubEnv("STORAGE_ENROLLMENT_KEY", second);
    expect(config().enrollmentKey).toBe(first);
    resetConfigForTests();
    expect(config().enrollmentKey).toBe(second);
    vi.stubEnv("TRUST_PROXY", "on");
    resetConfigForTests();
    expect(() => config()).toThrow(ConfigError);
  });
});
