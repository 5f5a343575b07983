// Every table of the product's schema, declared once: whether a backup holds it and which of its data are secrets.
// registry.test.ts fails when the migrated schema has a table this list does not name, so a new table is placed
// here (and in docs/backup.md) before it ships.

/** What a backup without `--with-secrets` leaves out of one table. */
export type Secrets = {
  /** SQL condition on the table's rows: rows it holds are left out whole (`true`: the whole table). */
  rows?: string;
  /**
   * Columns written as the SQL expression given instead of their value: null where the column allows it, else a
   * value no presented token ever hashes to (the column is unique, so it is made from the row's key).
   */
  columns?: Record<string, string>;
  /** What stops working after a restore without them, for the operator. */
  effect: string;
};

export type TableEntry = { backup: false; why: string } | { backup: true; secrets?: Secrets };

const SIGN_IN = "password sign-in (users set a password again through a reset link) and Coder/OIDC sign-in tokens";

export const TABLES: Readonly<Record<string, TableEntry>> = {
  settings: {
    backup: true,
    secrets: {
      rows: `key in ('auth_secret', 'enrollment_key')`,
      effect:
        "the generated sign-in secret (every session ends) and the enrollment key (a new one is generated unless " +
        "STORAGE_ENROLLMENT_KEY is set: templates that pass the old one stop enrolling)",
    },
  },
  workspaces: { backup: true },
  workspace_tokens: {
    backup: true,
    secrets: {
      columns: { token_hash: `'redacted:' || workspace_id`, claim_hash: "null" },
      effect: "the reporters' workspace tokens (each reporter enrolls again with the enrollment key)",
    },
  },
  report_blockers: { backup: true },
  reporter_releases: { backup: true },
  coder_sync_state: { backup: true },
  reports: { backup: true },
  root_usage: { backup: true },
  root_latest: { backup: true },
  root_daily: { backup: true },
  workspace_daily: { backup: true },
  fleet_delta: { backup: true },
  root_growth_days: { backup: true },
  workspace_agents: { backup: true },
  workspace_series: { backup: true },
  kept_pending: { backup: true },
  finding_rules: { backup: true },
  kept_findings: { backup: true },
  kept_finding_rules: { backup: true },
  users: { backup: true },
  sessions: { backup: true, secrets: { rows: "true", effect: "every session (everyone signs in again)" } },
  accounts: {
    backup: true,
    secrets: {
      columns: { password: "null", access_token: "null", refresh_token: "null", id_token: "null" },
      effect: SIGN_IN,
    },
  },
  verifications: {
    backup: true,
    secrets: { rows: "true", effect: "pending invitations and password resets (send them again)" },
  },
  api_keys: {
    backup: true,
    secrets: { columns: { key: `'redacted:' || id` }, effect: "API tokens (make new ones on the Tokens page)" },
  },
  rate_limits: { backup: false, why: "request counters of the last minutes" },
  sign_in_failures: { backup: false, why: "failed sign-in counters, which expire within the hour" },
  sign_in_places: { backup: true },
  audit_log: { backup: true },
  cleanup_policies: { backup: true },
  cleanup_runs: { backup: true },
  cleanup_jobs: {
    backup: true,
    secrets: {
      columns: { lease_token_hash: "null" },
      effect: "leases of running cleanup jobs (they are claimed again)",
    },
  },
  cleanup_job_results: {
    backup: true,
    secrets: {
      columns: { lease_token_hash: `'redacted:' || job_id` },
      effect: "answers to a reporter resending a result it already sent",
    },
  },
  notice_states: { backup: true },
  notification_outbox: { backup: true },
  owner_contacts: { backup: true },
  owner_notice_preferences: { backup: true },
  owner_recipes: { backup: true },
  cleanup_keeps: { backup: true },
  team_organizations: { backup: true },
  team_groups: { backup: true },
  team_members: { backup: true },
};

/** The tables a backup holds, in an order that loads parents before the rows that refer to them. */
export const BACKED_UP = Object.entries(TABLES)
  .filter(([, entry]) => entry.backup)
  .map(([name]) => name);

export const secretsOf = (table: string): Secrets | undefined => {
  const entry = TABLES[table];
  return entry?.backup ? entry.secrets : undefined;
};
