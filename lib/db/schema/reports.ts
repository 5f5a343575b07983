import {
  bigint,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  smallint,
  text,
  timestamp,
  uuid,
  boolean,
} from "drizzle-orm/pg-core";
import type { HomeUsage } from "@/lib/report-format/home";
import type {
  AgentRetention,
  AgeBreakdown,
  CategoryBreakdown,
  LargestEntry,
  LeftoverEntry,
  RecipeUsage,
  ScanError,
} from "@/lib/report-format/schema";
import type { RecipeId } from "@/lib/catalog/recipes";
import type { Persistence } from "@/lib/report-format/persistence";
import { workspaces } from "./workspaces";

const big = (name: string) => bigint(name, { mode: "number" });
const tz = (name: string) => timestamp(name, { withTimezone: true });

// The jsonb columns hold the report's own nested shapes: their types come from the zod report schema.
export type { AgeBreakdown, CategoryBreakdown };
export type ScanErrors = ScanError[];
export type RecipeUsageByRecipe = Partial<Record<RecipeId, RecipeUsage>>;

/**
 * Raw history, one row per accepted report. Partitioned by day on collected_at (drizzle/0011: drizzle-kit cannot
 * declare partitions), so expiry drops whole days. The key leads with the workspace so a move to Citus can
 * distribute by it, and holds collected_at because Postgres requires the partition key in every unique index:
 * the id alone cannot be unique here, so the ingest function checks it (under a lock on the id) instead.
 */
export const reports = pgTable(
  "reports",
  {
    id: uuid("id").notNull(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    collectedAt: tz("collected_at").notNull(),
    receivedAt: tz("received_at").notNull().defaultNow(),
    reporterVersion: text("reporter_version").notNull(),
    /** The version the module's script ran first and fell back from (report.reporter.fellBackFrom); else null. */
    fellBackFrom: text("fell_back_from"),
    scanMs: real("scan_ms").notNull(),
    totalBytes: big("total_bytes").notNull(),
    rootCount: integer("root_count").notNull(),
    volumeTotalBytes: big("volume_total_bytes"),
    volumeFreeBytes: big("volume_free_bytes"),
    volumeUsedBytes: big("volume_used_bytes"),
    volumeInodesTotal: big("volume_inodes_total"),
    volumeInodesUsed: big("volume_inodes_used"),
    volumeInodesFree: big("volume_inodes_free"),
    errors: jsonb("errors").$type<ScanErrors>().notNull().default([]),
    /** The agents' own retention settings as the report carried them; null from reporters that do not read them. */
    agentRetention: jsonb("agent_retention").$type<AgentRetention>(),
    /** The whole home as the report measured it; null from reporters that do not measure it. */
    home: jsonb("home").$type<HomeUsage>(),
    /** Where the home and each root live and whether that survives a restart; null from older reporters. */
    persistence: jsonb("persistence").$type<Persistence>(),
  },
  (t) => [
    // Also a workspace's reports in time order: previous and next report, the report history list, and the
    // usage export's keyset pages by (workspace, time, id).
    primaryKey({ columns: [t.workspaceId, t.collectedAt, t.id] }),
    // Finds a report id whoever sent it: duplicates and ids reused by another workspace.
    index("reports_id_idx").on(t.id),
  ],
);

const rootColumns = {
  workspaceId: text("workspace_id").notNull(),
  rootKey: text("root_key").notNull(),
  kind: text("kind").notNull(),
  agent: text("agent").notNull(),
  path: text("path").notNull(),
  bytes: big("bytes").notNull(),
  apparentBytes: big("apparent_bytes").notNull(),
  files: big("files").notNull(),
  dirs: big("dirs").notNull(),
  oldestMtime: tz("oldest_mtime"),
  newestMtime: tz("newest_mtime"),
  orphaned: boolean("orphaned").notNull().default(false),
  unreadable: integer("unreadable").notNull().default(0),
  categories: jsonb("categories").$type<CategoryBreakdown>().notNull().default({}),
  ages: jsonb("ages").$type<AgeBreakdown>().notNull().default({}),
  largest: jsonb("largest").$type<LargestEntry[]>().notNull().default([]),
  leftovers: jsonb("leftovers").$type<LeftoverEntry[]>().notNull().default([]),
  recipes: jsonb("recipes").$type<RecipeUsageByRecipe>().notNull().default({}),
};

/**
 * Every root of every accepted report: the raw history, partitioned by day like `reports` (no foreign key to
 * it: a partitioned table's id is not unique on its own). Append-only, so a BRIN index on time stays tight.
 */
export const rootUsage = pgTable(
  "root_usage",
  {
    reportId: uuid("report_id").notNull(),
    collectedAt: tz("collected_at").notNull(),
    ...rootColumns,
  },
  (t) => [
    // Time first: rows arrive in time order, so inserts land at the index's right edge (a uuid-first key put
    // every insert on a random page). A report's roots are found by (collected_at, workspace, report id).
    primaryKey({ columns: [t.collectedAt, t.workspaceId, t.reportId, t.rootKey] }),
    index("root_usage_collected_brin").using("brin", t.collectedAt),
  ],
);

/** The newest report's value of each root of each workspace: what fleet pages read. */
export const rootLatest = pgTable(
  "root_latest",
  {
    reportId: uuid("report_id").notNull(),
    collectedAt: tz("collected_at").notNull(),
    ...rootColumns,
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.rootKey] }),
    // No index holds a column a report changes (bytes, say), and the table keeps free room in its pages
    // (fillfactor, set in 0015): so rewriting a root's row is a heap-only update that touches no index.
    index("root_latest_agent_idx").on(t.agent),
    // The cleanup preview finds a recipe's roots across the fleet by key.
    index("root_latest_root_key_idx").on(t.rootKey),
  ],
);

/** Last value of each day per workspace and root (day in UTC). */
export const rootDaily = pgTable(
  "root_daily",
  {
    workspaceId: text("workspace_id").notNull(),
    rootKey: text("root_key").notNull(),
    day: date("day", { mode: "string" }).notNull(),
    agent: text("agent").notNull(),
    kind: text("kind").notNull(),
    bytes: big("bytes").notNull(),
    apparentBytes: big("apparent_bytes").notNull(),
    files: big("files").notNull(),
    collectedAt: tz("collected_at").notNull(),
  },
  (t) => [
    // Day first: every report upserts its roots' rows of the day, and the upsert finds each row through this
    // key. With the day first, today's entries sit together at the index's end, so the rows a report looks
    // for stay in memory however long the history is (keyed by workspace first, today's entries were spread
    // over the whole index). Also one day of every root (the 7-day comparisons) as one range.
    primaryKey({ columns: [t.day, t.workspaceId, t.rootKey] }),
    // One root's history in order: its value before a range, the export's key order, late reports.
    index("root_daily_workspace_root_day_idx").on(t.workspaceId, t.rootKey, t.day),
    // One workspace's roots over a range of days (the workspace page) without reading its whole history.
    index("root_daily_workspace_day_idx").on(t.workspaceId, t.day),
  ],
);

/** Last total of each day per workspace, with the volume: sparklines, 7-day change and forecasts. */
export const workspaceDaily = pgTable(
  "workspace_daily",
  {
    workspaceId: text("workspace_id").notNull(),
    day: date("day", { mode: "string" }).notNull(),
    bytes: big("bytes").notNull(),
    volumeTotalBytes: big("volume_total_bytes"),
    volumeFreeBytes: big("volume_free_bytes"),
    volumeUsedBytes: big("volume_used_bytes"),
    collectedAt: tz("collected_at").notNull(),
  },
  (t) => [
    // Day first, as root_daily's key (each report upserts its workspace's row of the day through it); also one
    // day of every workspace (the 7-day change) as one range rather than a lookup per workspace.
    primaryKey({ columns: [t.day, t.workspaceId] }),
    // One workspace's days (sparklines, forecast, the workspace page).
    index("workspace_daily_workspace_day_idx").on(t.workspaceId, t.day),
  ],
);

/**
 * Fleet roll-up stored as changes: the fleet's bytes of an agent and kind on day D is the sum of every delta
 * up to D. A workspace that stops reporting keeps counting at its last value instead of vanishing from the
 * chart. Rows are spread over a few shards so concurrent ingests do not queue on one hot row.
 */
export const fleetDelta = pgTable(
  "fleet_delta",
  {
    day: date("day", { mode: "string" }).notNull(),
    agent: text("agent").notNull(),
    kind: text("kind").notNull(),
    shard: smallint("shard").notNull(),
    bytes: big("bytes").notNull(),
    roots: integer("roots").notNull(),
  },
  (t) => [primaryKey({ columns: [t.day, t.agent, t.kind, t.shard] })],
);

/** A root that grew since the day 7 days ago, as root_growth_days keeps it (snake_case: the SQL reads it by name). */
export type GrownRoot = {
  root_key: string;
  agent: string;
  kind: string;
  bytes: number;
  /** Its root_daily value on since_day. */
  bytes_before: number;
  /** bytes − bytes_before, > 0. */
  growth: number;
  /** The UTC day of the latest report (YYYY-MM-DD): the growth per day divides by the days since since_day. */
  latest_day: string;
};

/**
 * Each workspace's roots that grew since the day 7 days ago (their root_daily value then), kept so that the
 * overview's fastest-growing roots are a top-N read by index rather than a join of the day's roll-up with every
 * latest root at each request; and for which day they were computed: a workspace not at the page's day is computed
 * at the request. One row per workspace, its grown roots in one value: the fleet's top N roots lie within the N
 * workspaces whose largest growth is largest, and one row rewritten per workspace costs a fraction of a row per
 * root. Rewritten after ingest (newest and late reports: a late one may change that day's value) and by
 * maintenance (lib/db/queries/root-growth.ts).
 */
export const rootGrowthDays = pgTable(
  "root_growth_days",
  {
    workspaceId: text("workspace_id")
      .primaryKey()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    /** The day the growth is measured from: the row is current for the pages of the day 7 days after it. */
    sinceDay: date("since_day", { mode: "string" }).notNull(),
    /** The largest growth of its roots; null when none grew. */
    topGrowth: big("top_growth"),
    /** Its roots that grew, largest growth first. */
    grown: jsonb("grown").$type<GrownRoot[]>().notNull().default([]),
  },
  (t) => [index("root_growth_days_top_idx").on(t.sinceDay, t.topGrowth.desc().nullsLast(), t.workspaceId)],
);

/**
 * Each workspace's latest roots of each agent and kind, summed: bytes, roots, bytes in files older than 30 days and
 * in all aged files, and the growth since the day 7 days ago of the roots that had a value that day. The agent
 * page sums one row per workspace and kind instead of every root with its age buckets and its value 7 days ago.
 * Written with root_growth_days, for the same day and by the same writers: a workspace's rows are current when
 * its root_growth_days row is at the page's day, and computed at the request otherwise (lib/db/queries/root-growth.ts).
 */
export const workspaceAgents = pgTable(
  "workspace_agents",
  {
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    agent: text("agent").notNull(),
    kind: text("kind").notNull(),
    bytes: big("bytes").notNull(),
    roots: integer("roots").notNull(),
    /** Bytes in files older than 30 days (age buckets "90d" and "older"). */
    oldBytes: doublePrecision("old_bytes").notNull(),
    /** Bytes in the age buckets altogether. */
    agedBytes: doublePrecision("aged_bytes").notNull(),
    /** Of the roots with a root_daily value on since_day (root_growth_days): their bytes now and that day. */
    measuredBytes: big("measured_bytes"),
    bytesBefore: big("bytes_before"),
    /** The UTC day of the latest report of those roots. */
    measuredDay: date("measured_day", { mode: "string" }),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.agent, t.kind] }), index("workspace_agents_agent_idx").on(t.agent)],
);

/**
 * Each workspace's latest bytes and roots per series of the fleet chart (an agent, "modules", "script-data"),
 * kept so that the overview's levels now and its top agents sum ~7 rows a workspace rather than every root.
 * Ingest rewrites a workspace's rows with its newest report; start and maintenance rewrite the fleet's
 * (lib/db/queries/workspace-series.ts).
 */
export const workspaceSeries = pgTable(
  "workspace_series",
  {
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    key: text("key").notNull(),
    bytes: big("bytes").notNull(),
    roots: integer("roots").notNull(),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.key] })],
);
