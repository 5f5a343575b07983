import "server-only";
import { listApiTokens, type ApiTokenInfo } from "@/lib/auth/api-tokens";
import { listUsers, type UserInfo } from "@/lib/auth/users";
import { policyStateText } from "@/lib/cleanup/wording";
import { col, type CsvColumn, type CsvExport } from "@/lib/csv/columns";
import { cleanupCatalog, type CatalogRecipe } from "@/lib/db/queries/cleanup-catalog";
import { everyAgent, type TopAgent } from "@/lib/db/queries/fleet-lists";
import { listPolicies, type Policy } from "@/lib/services/cleanup-policies";
import { rolloutView, type ReporterVersionView } from "@/lib/services/reporter-rollout";
import { getTableSizes, type TableSize } from "@/lib/db/queries/storage";
import type { Db } from "@/lib/db/types";
import { utcDayOf } from "@/lib/series";

// The tables of the Agents, Users, Cleanup and Settings pages as CSV: short lists (a row per agent, user, token,
// policy, recipe or database table), read whole by the same function the page (or its API) calls, so the file
// holds what the table shows, with exact figures where the table rounds.

const json = (v: unknown) => (v === null || v === undefined ? null : JSON.stringify(v));
const named = (name: string, now: Date) => `${name}-${utcDayOf(now)}.csv`;

export const USER_COLUMNS: CsvColumn<UserInfo>[] = [
  col("id", "text", (r) => r.id),
  col("email", "text", (r) => r.email),
  col("name", "text", (r) => r.name),
  col("role", "text", (r) => r.role),
  col("disabled", "boolean", (r) => r.disabled),
  col("sign_in_methods", "text", (r) => r.methods.join(" ")),
  col("created_at", "time", (r) => r.createdAt),
];

export const TOKEN_COLUMNS: CsvColumn<ApiTokenInfo>[] = [
  col("id", "text", (r) => r.id),
  col("name", "text", (r) => r.name),
  col("role", "text", (r) => r.role),
  col("starts_with", "text", (r) => r.start),
  col("created_by", "text", (r) => r.createdBy),
  col("created_at", "time", (r) => r.createdAt),
  col("expires_at", "time", (r) => r.expiresAt),
  col("last_used_at", "time", (r) => r.lastUsedAt),
  col("revoked", "boolean", (r) => r.revoked),
];

export const POLICY_COLUMNS: CsvColumn<Policy>[] = [
  col("id", "text", (r) => r.id),
  col("name", "text", (r) => r.name),
  col("recipe", "text", (r) => r.recipe),
  col("custom", "text", (r) => json(r.custom)),
  col("params", "text", (r) => json(r.params)),
  col("scope", "text", (r) => json(r.scope)),
  col("enabled", "boolean", (r) => r.enabled),
  col("schedule", "text", (r) => r.scheduleText),
  col("state", "text", policyStateText),
  col("confirmed_bytes", "integer", (r) => r.confirmed?.bytes),
  col("confirmed_workspaces", "integer", (r) => r.confirmed?.workspaces),
  col("held_bytes", "integer", (r) => r.held?.bytes),
  col("next_run_at", "time", (r) => r.nextRunAt),
  col("last_run_at", "time", (r) => r.lastRunAt),
  col("last_run_id", "text", (r) => r.lastRunId),
  col("created_at", "time", (r) => r.createdAt),
  col("created_by", "text", (r) => r.createdBy),
];

export const RECIPE_COLUMNS: CsvColumn<CatalogRecipe>[] = [
  col("id", "text", (r) => r.id),
  col("title", "text", (r) => r.title),
  col("agent", "text", (r) => r.agent),
  col("unit", "text", (r) => r.unit),
  col("default_action", "text", (r) => r.defaultAction),
  col("default_older_than_days", "integer", (r) => r.defaultOlderThanDays),
  col("frees_fleet_wide_bytes", "integer", (r) => r.fleet.bytes),
  col("frees_fleet_wide_estimate", "boolean", (r) => r.fleet.estimate),
  col("workspaces", "integer", (r) => r.fleet.workspaces),
  // frees_fleet_wide_bytes split by when the space is free: deleted now, trashed once the trash expires
  col("frees_now_bytes", "integer", (r) => r.fleet.nowBytes),
  col("frees_later_bytes", "integer", (r) => r.fleet.laterBytes),
  col("frees_later_in_days", "integer", (r) => r.fleet.laterDays),
];

export const TABLE_SIZE_COLUMNS: CsvColumn<TableSize>[] = [
  col("table", "text", (r) => r.table),
  col("bytes", "integer", (r) => r.bytes),
  col("rows", "integer", (r) => r.rows),
  col("rows_exact", "boolean", (r) => r.exact),
  col("rows_estimated_at", "time", (r) => r.estimatedAt),
  col("partitions", "integer", (r) => r.partitions),
];

export const usersExport = async (db: Db, now = new Date()): Promise<CsvExport<UserInfo>> => ({
  filename: named("users", now),
  columns: USER_COLUMNS,
  rows: await listUsers(db),
});

export const tokensExport = async (db: Db, now = new Date()): Promise<CsvExport<ApiTokenInfo>> => ({
  filename: named("api-tokens", now),
  columns: TOKEN_COLUMNS,
  rows: await listApiTokens(db),
});

export const policiesExport = async (db: Db, now = new Date()): Promise<CsvExport<Policy>> => ({
  filename: named("cleanup-policies", now),
  columns: POLICY_COLUMNS,
  rows: await listPolicies(db),
});

export const recipesExport = async (db: Db, now = new Date()): Promise<CsvExport<CatalogRecipe>> => ({
  filename: named("cleanup-recipes", now),
  columns: RECIPE_COLUMNS,
  rows: (await cleanupCatalog(db)).recipes,
});

export const tableSizesExport = async (db: Db, now = new Date()): Promise<CsvExport<TableSize>> => ({
  filename: named("database-tables", now),
  columns: TABLE_SIZE_COLUMNS,
  rows: await getTableSizes(db),
});

/** The reporter rollout's versions as Settings lists them: what each one's workspaces do, and what it is given. */
export const reporterVersionsExport = async (db: Db, now = new Date()): Promise<CsvExport<ReporterVersionView>> => {
  const view = await rolloutView(db);
  const given = (v: string) =>
    [
      v === view.latest ? "latest (this release)" : "",
      v === view.rollout.pinned ? "pinned" : "",
      v === view.rollout.candidate?.version ? "candidate" : "",
    ]
      .filter(Boolean)
      .join("; ");
  return {
    filename: named("reporter-versions", now),
    columns: [
      col("version", "text", (r) => r.version),
      col("role", "text", (r) => given(r.version)),
      col("held", "boolean", (r) => r.held),
      col("workspaces_reporting", "integer", (r) => r.reporting),
      col("with_errors", "integer", (r) => r.withErrors),
      col("fell_back", "integer", (r) => r.fellBack),
      col("bundle_bytes", "integer", (r) => r.size),
      col("held_since", "time", (r) => r.firstSeen),
    ],
    rows: view.versions,
  };
};

/** The agents index: its Share as a percentage of the agents' sum, the page's total (to two decimals). */
export const agentsExport = async (db: Db, now = new Date()): Promise<CsvExport<TopAgent>> => {
  const agents = await everyAgent(db);
  const total = agents.reduce((s, a) => s + a.bytes, 0);
  return {
    filename: named("agents", now),
    columns: [
      col("agent", "text", (r) => r.agent),
      col("bytes", "integer", (r) => r.bytes),
      col("share_percent", "number", (r) => (total > 0 ? Math.round((r.bytes / total) * 10000) / 100 : null)),
      col("workspaces", "integer", (r) => r.workspaces),
      col("roots", "integer", (r) => r.roots),
    ],
    rows: agents,
  };
};
