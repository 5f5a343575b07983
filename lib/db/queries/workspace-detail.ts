import "server-only";
import type { FindingGroup } from "@/lib/findings/finding";
import type { LargestEntry } from "@/lib/report-format/schema";
import { eachDay, resolveRange, type Day, type DayRange, type RangeParams } from "@/lib/series";
import {
  forecastLine,
  usageByRoot,
  volumeHistory,
  type RootDetail,
  type RootRef,
  type VolumeHistoryPoint,
  type VolumePanel,
  type WorkspaceUsage,
  type WorkspaceUsagePoint,
} from "@/lib/shaping/workspace-detail";
import type { Db } from "../types";
import { getRules, listFindings } from "./findings";
import {
  latestRoots,
  reportHistory,
  rootDays,
  volumeDays,
  workspaceHead,
  type ReportHistoryRow,
  type WorkspaceHead,
} from "./workspace-panels";
import type { WorkspaceScope } from "../scope";

export type { ReportHistoryRow, RootDetail, RootRef, VolumeHistoryPoint, WorkspaceUsagePoint };

const FORECAST_HORIZON_DAYS = 90;

/** `coderUrl`: Coder's access URL for the workspace's link into Coder (the caller's configuration); none without it. */
export type WorkspaceDetailParams = RangeParams & { now?: Date; reports?: number; coderUrl?: string | null };

export type WorkspaceDetail = {
  workspace: WorkspaceHead;
  range: DayRange;
  usage: WorkspaceUsage;
  /** The newest report's roots, largest first. */
  roots: RootDetail[];
  /** Largest entries of type "session" across all roots (Claude Code's largest sessions, ...), largest first. */
  largestSessions: (LargestEntry & { rootKey: string; agent: string })[];
  volume: VolumePanel;
  /** Every row of the workspace's findings (identical findings grouped), most urgent first. */
  findings: FindingGroup[];
  /** Newest first. */
  reports: ReportHistoryRow[];
};

/**
 * Null when the workspace is unknown or outside the caller's scope (the route answers 404 alike, so a member
 * cannot tell another's workspace from none). Each panel is one read (workspace-panels.ts).
 */
export async function getWorkspaceDetail(
  db: Db,
  scope: WorkspaceScope,
  id: string,
  params: WorkspaceDetailParams = {},
): Promise<WorkspaceDetail | null> {
  const now = params.now ?? new Date();
  const range = resolveRange(params, now);
  const days = eachDay(range.from, range.to);
  const ctx = { now, rules: await getRules(db), coderUrl: params.coderUrl ?? null };
  // Every other panel reads by this id only once the head has found it within the scope.
  const workspace = await workspaceHead(db, scope, id, ctx);
  if (!workspace) return null;

  const [perRoot, volumeByDay, roots, reports, findings] = await Promise.all([
    rootDays(db, id, range),
    volumeDays(db, id, range),
    latestRoots(db, id),
    reportHistory(db, id, params.reports ?? 50),
    listFindings(db, scope, { workspace: id, now, rules: ctx.rules, limit: 500 }),
  ]);

  const reportedDays = new Set<Day>([...perRoot.daily.map((r) => r.day), ...volumeByDay.days.map((r) => r.day)]);
  const largestSessions = roots
    .flatMap((r) =>
      r.largest.filter((e) => e.type === "session").map((e) => ({ ...e, rootKey: r.key, agent: r.agent })),
    )
    .sort((a, b) => b.bytes - a.bytes || a.path.localeCompare(b.path))
    .slice(0, 20);
  const v = workspace.volume;
  // The fit ingest stored with the newest report (ingest_reports: least squares over the last FORECAST_DAYS
  // days, lib/db/queries/ingest.ts).
  const slope = workspace.growthBytesPerDay;
  return {
    workspace,
    range,
    usage: usageByRoot(days, perRoot.start, perRoot.daily, reportedDays),
    roots,
    largestSessions,
    volume: {
      history: volumeHistory(days, volumeByDay.days, volumeByDay.start, reportedDays),
      forecast: {
        slopeBytesPerDay: slope,
        fullAt: workspace.forecastFullAt,
        points: forecastLine({
          slopeBytesPerDay: slope,
          usedBytes: v?.usedBytes ?? null,
          capacityBytes: v ? v.usedBytes + v.availBytes : null,
          lastCollectedAt: workspace.lastCollectedAt,
          horizonDays: FORECAST_HORIZON_DAYS,
        }),
      },
    },
    findings: findings.findings,
    reports,
  };
}
