import type { Db } from "../types";
import type { WorkspaceRef } from "@/lib/findings/rules";
import type { Day, DayRange, HistogramBucket, RangeParams } from "@/lib/series";

export type AgentDetailParams = RangeParams & { now?: Date; limit?: number };

export type AgentDetail = {
  agent: string;
  /** False when no workspace has reported data of this agent (a known agent: everything below is empty/0). */
  hasData: boolean;
  range: DayRange;
  total: { bytes: number; workspaces: number; roots: number };
  /** Fleet bytes of this agent at the end of each day of the range (from the fleet roll-up), every day present. */
  series: { day: Day; bytes: number; roots: number }[];
  /** Bytes by root kind now (tool, module, legacy, leftover, ...). */
  byKind: { kind: string; bytes: number; roots: number }[];
  /** Per-workspace bytes of this agent in log-scale bins (<1 MiB, 1–4 MiB, 4–16 MiB, …). */
  distribution: HistogramBucket[];
  largestWorkspaces: (WorkspaceRef & { bytes: number; roots: number })[];
  growth: {
    /** Median over workspaces of (bytes now − bytes on `sinceDay`) / days; null when none can be measured. */
    medianBytesPerDay: number | null;
    /** Workspaces that had a value on `sinceDay`. */
    workspacesMeasured: number;
    sinceDay: Day;
  };
  /** Bytes in files older than 30 days (age buckets "90d" and "older"), and their share of all aged bytes. */
  oldData: { bytes: number; agedBytes: number; share: number | null };
};

/** Null for an agent slug that is neither known nor seen in any data (the route answers 404). */
export async function getAgentDetail(db: Db, agent: string, params: AgentDetailParams = {}): Promise<AgentDetail | null> {
  void db;
  void agent;
  void params;
  throw new Error("not implemented yet");
}
