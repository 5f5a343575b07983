import type { Db } from "../types";
import type { FindingsSummary } from "./findings";
import type { Day, DayRange, RangeParams } from "@/lib/series";
import type { WorkspaceRef } from "@/lib/findings/rules";

export type { WorkspaceRef };

/**
 * Series keys of the fleet chart: an agent slug (its tool data, legacy folders, leftovers and the modules that
 * belong to it), "modules" (module folders of no known agent), "script-data" (coder-script-data folders,
 * current and orphaned) and "other".
 */
export type FleetSeriesKey = string;

export type Growth = {
  /** Bytes now minus bytes then (negative when the fleet shrank). */
  bytes: number;
  /** Relative to the level then; null when that level was 0. */
  ratio: number | null;
};

export type FleetSeriesPoint = {
  day: Day;
  /** Bytes per series key at the end of the day (every key of `keys` present, 0 when none). */
  values: Record<FleetSeriesKey, number>;
  total: number;
};

export type FleetOverviewParams = RangeParams & { now?: Date; limit?: number };

export type FleetOverview = {
  range: DayRange;
  generatedAt: string;
  total: {
    /** Sum of every workspace's newest total. */
    bytes: number;
    workspaces: number;
    /** Workspaces with at least one report. */
    reportingWorkspaces: number;
    roots: number;
  };
  /** Change of the fleet level (from the fleet roll-up) over the last 1, 7 and 30 days, ending today (UTC). */
  growth: { d1: Growth; d7: Growth; d30: Growth };
  series: {
    /** Largest first (by the last day's bytes). */
    keys: FleetSeriesKey[];
    /** One point per day of the range, oldest first, every day present. */
    points: FleetSeriesPoint[];
  };
  topWorkspaces: (WorkspaceRef & {
    template: string | null;
    totalBytes: number;
    largestAgent: string | null;
    lastCollectedAt: string | null;
  })[];
  topAgents: { agent: string; bytes: number; workspaces: number; roots: number }[];
  /** Roots that grew the most since their daily value 7 days ago (roots without a value that day are left out). */
  fastestGrowingRoots: {
    workspace: WorkspaceRef;
    rootKey: string;
    agent: string;
    kind: string;
    bytes: number;
    /** The root's value on `sinceDay`. */
    bytesBefore: number;
    growthBytes: number;
    growthBytesPerDay: number;
    sinceDay: Day;
  }[];
  /** Volumes forecast to fill within 7 days, soonest first. */
  fillingSoon: {
    workspace: WorkspaceRef;
    forecastFullAt: string;
    daysUntilFull: number;
    volumeTotalBytes: number | null;
    volumeFreeBytes: number | null;
    growthBytesPerDay: number | null;
  }[];
  /** Workspaces whose newest report is over 24 hours old (or that never reported), longest silent first. */
  silent: { count: number; workspaces: (WorkspaceRef & { lastCollectedAt: string | null; hoursSilent: number | null })[] };
  findings: FindingsSummary;
};

export async function getFleetOverview(db: Db, params: FleetOverviewParams = {}): Promise<FleetOverview> {
  void db;
  void params;
  throw new Error("not implemented yet");
}
