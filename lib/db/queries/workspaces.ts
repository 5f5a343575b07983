import { z } from "zod";
import type { Db } from "../types";
import type { Finding, WorkspaceRef } from "@/lib/findings/rules";
import type { AgeBreakdown, CategoryBreakdown } from "../schema";
import type { LargestEntry } from "@/lib/report/schema";
import type { Day, DayRange, RangeParams } from "@/lib/series";

export const WORKSPACE_SORT_COLUMNS = [
  "name",
  "owner",
  "template",
  "total",
  "change7d",
  "largestAgent",
  "volumeUsed",
  "daysUntilFull",
  "lastReport",
] as const;
export type WorkspaceSortColumn = (typeof WORKSPACE_SORT_COLUMNS)[number];

/** Query parameters of GET /api/v1/workspaces. */
export const workspaceListQuery = z.object({
  q: z.string().trim().max(200).optional(),
  owner: z.string().max(200).optional(),
  template: z.string().max(200).optional(),
  /** Workspaces having at least one root of this agent. */
  agent: z.string().max(100).optional(),
  sort: z.enum(WORKSPACE_SORT_COLUMNS).default("total"),
  dir: z.enum(["asc", "desc"]).default("desc"),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(50),
});
export type WorkspaceListParams = z.input<typeof workspaceListQuery> & { now?: Date };

export type WorkspaceRow = WorkspaceRef & {
  template: string | null;
  agentName: string | null;
  totalBytes: number;
  rootCount: number;
  /** totalBytes minus the workspace's daily total on or before 7 days ago; null without such a day. */
  change7dBytes: number | null;
  largestAgent: string | null;
  largestAgentBytes: number | null;
  volumeTotalBytes: number | null;
  volumeFreeBytes: number | null;
  /** 0–100, null without volume data. */
  volumeUsedPercent: number | null;
  growthBytesPerDay: number | null;
  forecastFullAt: string | null;
  /** Days from now until forecastFullAt (fractional, may be negative); null when not growing. */
  daysUntilFull: number | null;
  lastCollectedAt: string | null;
  /** No report for over 24 hours, or never reported. */
  silent: boolean;
};

export type WorkspaceListRow = WorkspaceRow & {
  /** Daily totals aligned with `WorkspaceList.sparklineDays`: carried forward over days without a report, null before the first. */
  sparkline: (number | null)[];
};

export type WorkspaceList = {
  rows: WorkspaceListRow[];
  /** Rows matching the filters, over all pages. */
  total: number;
  page: number;
  pageSize: number;
  sort: WorkspaceSortColumn;
  dir: "asc" | "desc";
  /** The last 30 days (UTC), oldest first. */
  sparklineDays: Day[];
};

export async function listWorkspaces(db: Db, params: WorkspaceListParams = {}): Promise<WorkspaceList> {
  void db;
  void params;
  throw new Error("not implemented yet");
}

export type RootRef = { key: string; agent: string; kind: string };

export type WorkspaceUsagePoint = {
  day: Day;
  /** Bytes per root key at the end of the day; roots that did not exist yet are absent. */
  values: Record<string, number>;
  total: number;
  /**
   * False when the workspace sent no report that day: values are carried forward from the last day that had
   * one (draw such days dashed or hatched). Days before the first report have no values and total 0.
   */
  reported: boolean;
};

export type RootDetail = RootRef & {
  path: string;
  bytes: number;
  apparentBytes: number;
  files: number;
  dirs: number;
  oldestMtime: string | null;
  newestMtime: string | null;
  orphaned: boolean;
  unreadable: number;
  categories: CategoryBreakdown;
  /** Age distribution: bytes and files per age bucket (upper bounds 1d, 7d, 30d, 90d, older). */
  ages: AgeBreakdown;
  largest: LargestEntry[];
  collectedAt: string;
};

export type ReportHistoryRow = {
  id: string;
  collectedAt: string;
  receivedAt: string;
  reporterVersion: string;
  scanMs: number;
  totalBytes: number;
  rootCount: number;
  errorCount: number;
  volumeTotalBytes: number | null;
  volumeFreeBytes: number | null;
};

export type WorkspaceDetailParams = RangeParams & { now?: Date; reports?: number };

export type WorkspaceDetail = {
  workspace: WorkspaceRow & { firstSeenAt: string; lastSeenAt: string | null; lastReportId: string | null };
  range: DayRange;
  usage: {
    /** Every root that has a value in the range, largest (on the last day) first. */
    roots: RootRef[];
    /** One point per day of the range. */
    points: WorkspaceUsagePoint[];
  };
  /** The newest report's roots, largest first. */
  roots: RootDetail[];
  /** Largest entries of type "session" across all roots (Claude Code's largest sessions, ...), largest first. */
  largestSessions: (LargestEntry & { rootKey: string; agent: string })[];
  volume: {
    totalBytes: number | null;
    freeBytes: number | null;
    usedBytes: number | null;
    usedPercent: number | null;
    /** Used bytes at the end of each day of the range (carried forward; null before the first report). */
    history: { day: Day; usedBytes: number | null; totalBytes: number | null; reported: boolean }[];
    /** Linear fit (lib/forecast) over the last 14 days with a report. */
    forecast: {
      slopeBytesPerDay: number | null;
      fullAt: string | null;
      /** Projected used bytes per day from the last known day until full (at most 90 days ahead); empty when not growing. */
      points: { day: Day; usedBytes: number }[];
    };
  };
  findings: Finding[];
  /** Newest first. */
  reports: ReportHistoryRow[];
};

/** Null when the workspace is unknown (the route answers 404). */
export async function getWorkspaceDetail(
  db: Db,
  id: string,
  params: WorkspaceDetailParams = {},
): Promise<WorkspaceDetail | null> {
  void db;
  void id;
  void params;
  throw new Error("not implemented yet");
}
