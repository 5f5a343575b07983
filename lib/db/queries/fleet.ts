import "server-only";
import type { RuleSet } from "@/lib/findings/rules";
import { resolveRange, utcDayOf, type DayRange, type RangeParams } from "@/lib/series";
import { countVolumesAtRisk } from "./volumes-at-risk";
import type { Db } from "../types";
import { getSyncState, type CoderSyncState } from "./coder-sync";
import { getCoverage, notReportingWorkspaces, type Coverage, type NotReportingWorkspace } from "./coverage";
import { getFindingsSummary, getRules, type FindingsSummary } from "./findings";
import {
  fastestGrowingRoots,
  fleetTotals,
  silentWorkspaces,
  topAgents,
  topWorkspaces,
  volumesAtRisk,
  type FleetTotals,
  type GrowingRoot,
  type SilentWorkspaces,
  type TopAgent,
  type TopWorkspace,
  type VolumeAtRisk,
} from "./fleet-lists";
import { fleetHomeSplit, type FleetHome } from "./fleet-home";
import { fleetSeries, type FleetSeries, type Growth } from "./fleet-series";
import { clampToRollups, getHorizons } from "./retention";
import { figuresAsOf } from "./kept-pending";
import { growthSinceDay } from "./root-growth";

export type FleetOverviewParams = RangeParams & { now?: Date; limit?: number };

export type FleetOverview = {
  range: DayRange;
  generatedAt: string;
  /** The figures hold every report received up to this time (kept aggregates refresh just after ingest); null before any report. */
  figuresAsOf: string | null;
  total: FleetTotals;
  /** Change of the fleet level (from the fleet roll-up) over the last 1, 7 and 30 days, ending today (UTC). */
  growth: { d1: Growth; d7: Growth; d30: Growth };
  series: FleetSeries;
  topWorkspaces: TopWorkspace[];
  topAgents: TopAgent[];
  /** Roots that grew the most since their daily value 7 days ago (roots without a value that day are left out). */
  fastestGrowingRoots: GrowingRoot[];
  /**
   * Volumes that are full (df Use% or IUse% at the full rule's threshold) first, fullest first; then volumes
   * forecast to fill within the volume-filling rule's days, soonest first.
   */
  volumesAtRisk: VolumeAtRisk[];
  /** How many volumes are at risk in all (the list holds the first `limit`): the overview's "+N more". */
  volumesAtRiskTotal: number;
  /** The volume-filling rule's horizon in days (what "filling soon" means), null when the rule is off. */
  fillingDays: number | null;
  silent: SilentWorkspaces;
  findings: FindingsSummary;
  /** How many of Coder's workspaces report; null until a workspace sync has seen one. */
  coverage: Coverage | null;
  /** The last workspace sync from Coder (its time, counts and error); null when none ran. */
  coderSync: CoderSyncState | null;
  /** Workspaces that do not report, with the reason their module gave (the first `limit`, and how many). */
  notReporting: { total: number; workspaces: NotReportingWorkspace[] };
  /** What fills the fleet's homes (agents, modules, caches, projects, other). */
  home: FleetHome;
};

const fillingDaysOf = (rules: RuleSet) =>
  rules["volume-filling"].enabled ? rules["volume-filling"].params.days : null;

/**
 * The fleet page's data, one function per panel, read from the workspaces table, root_latest and the roll-ups
 * only (never history). A range reaching back past the roll-ups' retention starts at its horizon (the returned
 * `range` says so): expired changes are folded into one baseline row, so levels from the horizon on are
 * exact, earlier unknown.
 */
export async function getFleetOverview(db: Db, params: FleetOverviewParams = {}): Promise<FleetOverview> {
  const now = params.now ?? new Date();
  const limit = params.limit ?? 10;
  const [rules, horizons] = await Promise.all([getRules(db), getHorizons(db)]);
  const range = clampToRollups(resolveRange(params, now), horizons.rollups);
  const today = utcDayOf(now);
  const fillingDays = fillingDaysOf(rules);
  const [
    chart,
    total,
    largest,
    agents,
    growing,
    atRisk,
    silent,
    findings,
    coverage,
    coderSync,
    notReporting,
    home,
    asOf,
    atRiskTotal,
  ] = await Promise.all([
    fleetSeries(db, range, today),
    fleetTotals(db),
    topWorkspaces(db, limit),
    topAgents(db, limit),
    fastestGrowingRoots(db, growthSinceDay(now), limit),
    volumesAtRisk(db, { rules, now, fillingDays, limit }),
    silentWorkspaces(db, { rules, now, limit }),
    getFindingsSummary(db, { now, rules }),
    getCoverage(db),
    getSyncState(db),
    notReportingWorkspaces(db, limit),
    fleetHomeSplit(db),
    figuresAsOf(db),
    countVolumesAtRisk(db, rules, now, fillingDays),
  ]);
  return {
    range,
    generatedAt: now.toISOString(),
    figuresAsOf: asOf?.toISOString() ?? null,
    total,
    growth: chart.growth,
    series: chart.series,
    topWorkspaces: largest,
    topAgents: agents,
    fastestGrowingRoots: growing,
    volumesAtRisk: atRisk,
    volumesAtRiskTotal: atRiskTotal,
    fillingDays,
    silent,
    findings,
    coverage,
    coderSync,
    notReporting,
    home,
  };
}
