import { z } from "zod";
import { modulePath } from "./modules";
import { rangeQuery } from "./range";
import { workspaceListEntries, type WorkspaceListState } from "./workspaces";

// Parameters of the CSV exports (GET /api/v1/export/...). Each export takes the same parameters as the page
// or API it exports (range from range.ts, list state from workspaces.ts, findings filters from findings.ts);
// the usage export adds its own filters. DB-free: the ExportLink component builds its hrefs from here too.

/** A list parameter: repeated (?workspace=a&workspace=b), or comma-separated when `commas` (ids never hold one). */
const list = (commas: boolean, max: number) =>
  z
    .union([z.string(), z.array(z.string())])
    .transform((v) =>
      (Array.isArray(v) ? v : [v])
        .flatMap((s) => (commas ? s.split(",") : [s]))
        .map((s) => s.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.string().max(max)).max(500, "at most 500 values"));

/** Empty means no filter, as a form with an empty field sends it; not trimmed (names may start with a tab). */
const filter = (max: number) =>
  z
    .string()
    .max(max)
    .transform((v) => v || undefined);

export const USAGE_GRANULARITIES = ["daily", "report"] as const;
export type UsageGranularity = (typeof USAGE_GRANULARITIES)[number];

/** GET /api/v1/export/usage.csv: one row per workspace, root and day (daily) or report (report). */
export const usageExportQuery = rangeQuery.safeExtend({
  granularity: z.enum(USAGE_GRANULARITIES).default("daily"),
  /** Workspace ids. */
  workspace: list(true, 200).optional(),
  owner: filter(200).optional(),
  template: filter(200).optional(),
  /** Rows of this agent's roots only. */
  agent: filter(100).optional(),
  /** Root keys (repeat the parameter for several: a key may hold a comma). */
  root: list(false, 500).optional(),
});
export type UsageExportQuery = z.output<typeof usageExportQuery>;

export const FLEET_TABLES = [
  "series",
  "top-workspaces",
  "top-agents",
  "fastest-growing",
  "volumes-at-risk",
  "silent",
  "not-reporting",
  "homes",
] as const;
export const AGENT_TABLES = ["workspaces", "series", "kinds", "distribution"] as const;
export const WORKSPACE_TABLES = [
  "roots",
  "categories",
  "sessions",
  "entries",
  "ages",
  "volume",
  "reports",
  "home",
  "home-folders",
] as const;
export type FleetTable = (typeof FLEET_TABLES)[number];
export type AgentTable = (typeof AGENT_TABLES)[number];
export type WorkspaceTable = (typeof WORKSPACE_TABLES)[number];

/** A table named in the path as "<name>.csv" (404 for any other name, as for any unknown path). */
export function tableOf<T extends string>(segment: string, tables: readonly T[]): T | null {
  const name = segment.endsWith(".csv") ? segment.slice(0, -4) : null;
  return name !== null && (tables as readonly string[]).includes(name) ? (name as T) : null;
}

export const EXPORT_BASE = "/api/v1/export";

export const exportPaths = {
  usage: () => `${EXPORT_BASE}/usage.csv`,
  usageBy: () => `${EXPORT_BASE}/usage-by.csv`,
  workspaces: () => `${EXPORT_BASE}/workspaces.csv`,
  findings: () => `${EXPORT_BASE}/findings.csv`,
  restart: () => `${EXPORT_BASE}/restart.csv`,
  /** The volumes-at-risk page's table, every row (`days` as the page's). */
  volumes: () => `${EXPORT_BASE}/volumes.csv`,
  /** The agents index: every agent and series with its storage. */
  agents: () => `${EXPORT_BASE}/agents.csv`,
  fleet: (table: FleetTable) => (table === "series" ? `${EXPORT_BASE}/fleet.csv` : `${EXPORT_BASE}/fleet/${table}.csv`),
  agent: (agent: string, table: AgentTable = "workspaces") =>
    table === "workspaces"
      ? `${EXPORT_BASE}/agents/${encodeURIComponent(agent)}.csv`
      : `${EXPORT_BASE}/agents/${encodeURIComponent(agent)}/${table}.csv`,
  /** The module page's chart; `key` is the module root's key, "<namespace>/<module>". */
  module: (key: string) => `${EXPORT_BASE}${modulePath(key)}.csv`,
  workspace: (id: string, table: WorkspaceTable) => `${EXPORT_BASE}/workspaces/${encodeURIComponent(id)}/${table}.csv`,
  cleanupRuns: () => `${EXPORT_BASE}/cleanup/runs.csv`,
  cleanupRun: (id: string) => `${EXPORT_BASE}/cleanup/runs/${encodeURIComponent(id)}.csv`,
  audit: () => `${EXPORT_BASE}/audit.csv`,
  notifications: () => `${EXPORT_BASE}/notifications.csv`,
  workspaceNotices: (id: string) => `${EXPORT_BASE}/workspaces/${encodeURIComponent(id)}/notices.csv`,
  cleanupPolicies: () => `${EXPORT_BASE}/cleanup/policies.csv`,
  cleanupRecipes: () => `${EXPORT_BASE}/cleanup/recipes.csv`,
  tableSizes: () => `${EXPORT_BASE}/settings/tables.csv`,
  reporterVersions: () => `${EXPORT_BASE}/settings/reporter-versions.csv`,
  users: () => `${EXPORT_BASE}/users.csv`,
  tokens: () => `${EXPORT_BASE}/tokens.csv`,
};

/** The workspaces table's parameters for its export: filters and sort, not the page (the export has them all). */
export function workspaceListExportParams(state: WorkspaceListState): Record<string, string | null> {
  const entries = workspaceListEntries(state);
  return {
    q: entries.q,
    owner: entries.owner,
    template: entries.template,
    organization: entries.organization,
    group: entries.group,
    agent: entries.agent,
    status: entries.status,
    dormant: entries.dormant,
    reporting: entries.reporting,
    sort: entries.sort,
    dir: entries.dir,
  };
}

export type ExportParams = Record<string, string | number | readonly string[] | null | undefined>;

/** "path?a=1&b=2": empty values left out, arrays as repeated parameters. */
export function exportHref(path: string, params: ExportParams = {}): string {
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    for (const item of Array.isArray(v) ? v : [v]) {
      if (item !== undefined && item !== null && item !== "") qs.append(k, String(item));
    }
  }
  const s = qs.toString();
  return s ? `${path}?${s}` : path;
}
