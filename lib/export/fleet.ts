import "server-only";
import { col, csvTable, type CsvColumn, type CsvTable, type SomeCsvExport } from "@/lib/csv/columns";
import type { AgentReclaimable } from "@/lib/cleanup/reclaimable";
import { cleanupCatalog } from "@/lib/db/queries/cleanup-catalog";
import { getFleetOverview, type FleetOverview } from "@/lib/db/queries/fleet";
import type { Db } from "@/lib/db/types";
import type { RangeParams } from "@/lib/series";
import { FLEET_HOME_PARTS } from "@/lib/shaping/home-breakdown";
import type { FleetTable } from "@/lib/validations/export";
import { dfColumns } from "./df-columns";

// The fleet overview's chart and lists, exported as the page shows them (same range, the same top 10): the
// page's own query builds them, from the latest tables and roll-ups only, so each is small whatever the fleet.

type Overview = FleetOverview;

const round2 = (n: number | null) => (n === null ? null : Math.round(n * 100) / 100);
const ws = <R>(pick: (r: R) => { id: string; name: string; owner: string }): CsvColumn<R>[] => [
  col("workspace_id", "text", (r) => pick(r).id),
  col("workspace", "text", (r) => pick(r).name),
  col("owner", "text", (r) => pick(r).owner),
];

/** Each agent's reclaimable figure (the catalog's), asked for only by the top agents' table. */
type Reclaimable = Map<string, AgentReclaimable>;

const TABLES: { [T in FleetTable]: (o: Overview, reclaimable: Reclaimable) => CsvTable } = {
  // One row per day and series (long form: a pivot table turns it into the chart's stack).
  series: (o) =>
    csvTable(
      o.series.points.flatMap((p) => o.series.keys.map((k) => ({ day: p.day, series: k, bytes: p.values[k] }))),
      [
        col("day", "day", (r) => r.day),
        col("series", "text", (r) => r.series),
        col("bytes", "integer", (r) => r.bytes),
      ],
    ),
  "top-workspaces": (o) =>
    csvTable(o.topWorkspaces, [
      ...ws<Overview["topWorkspaces"][number]>((r) => r),
      col("template", "text", (r) => r.template),
      col("total_bytes", "integer", (r) => r.totalBytes),
      col("largest_agent", "text", (r) => r.largestAgent),
      col("last_report_at", "time", (r) => r.lastCollectedAt),
    ]),
  "top-agents": (o, reclaimable) =>
    csvTable(o.topAgents, [
      col("agent", "text", (r) => r.agent),
      col("bytes", "integer", (r) => r.bytes),
      col("workspaces", "integer", (r) => r.workspaces),
      col("roots", "integer", (r) => r.roots),
      // what its recipes free with their defaults: empty for an agent no recipe cleans
      col("reclaimable_now_bytes", "integer", (r) => reclaimable.get(r.agent)?.nowBytes),
      col("reclaimable_later_bytes", "integer", (r) => reclaimable.get(r.agent)?.laterBytes),
      col("reclaimable_later_in_days", "integer", (r) => reclaimable.get(r.agent)?.laterDays),
    ]),
  "fastest-growing": (o) =>
    csvTable(o.fastestGrowingRoots, [
      ...ws<Overview["fastestGrowingRoots"][number]>((r) => r.workspace),
      col("root", "text", (r) => r.rootKey),
      col("agent", "text", (r) => r.agent),
      col("kind", "text", (r) => r.kind),
      col("since_day", "day", (r) => r.sinceDay),
      col("bytes_before", "integer", (r) => r.bytesBefore),
      col("bytes", "integer", (r) => r.bytes),
      col("growth_bytes", "integer", (r) => r.growthBytes),
      col("growth_bytes_per_day", "integer", (r) => Math.round(r.growthBytesPerDay)),
    ]),
  "volumes-at-risk": (o) =>
    csvTable(o.volumesAtRisk, [
      ...ws<Overview["volumesAtRisk"][number]>((r) => r.workspace),
      ...dfColumns<Overview["volumesAtRisk"][number]>((r) => r.volume),
      col("volume_full", "boolean", (r) => r.volume.full || r.volume.inodesFull),
      col("forecast_full_at", "time", (r) => r.forecastFullAt),
      col("growth_bytes_per_day", "integer", (r) =>
        r.growthBytesPerDay === null ? null : Math.round(r.growthBytesPerDay),
      ),
    ]),
  silent: (o) =>
    csvTable(o.silent.workspaces, [
      ...ws<Overview["silent"]["workspaces"][number]>((r) => r),
      col("last_report_at", "time", (r) => r.lastCollectedAt),
      col("hours_silent", "number", (r) => round2(r.hoursSilent)),
    ]),
  "not-reporting": (o) =>
    csvTable(o.notReporting.workspaces, [
      ...ws<Overview["notReporting"]["workspaces"][number]>((r) => r),
      col("template", "text", (r) => r.template),
      col("reason", "text", (r) => r.reason),
      col("detail", "text", (r) => r.detail),
      col("reason_at", "time", (r) => r.reportedAt),
      col("last_report_at", "time", (r) => r.lastCollectedAt),
    ]),
  // What fills the homes: each part of the measured homes, then what their volumes hold outside them, then what
  // their measured roots hold (their part of Total storage: the homes less it is what lies outside the roots).
  homes: (o) =>
    csvTable(
      [
        ...FLEET_HOME_PARTS.map((part) => ({ part, bytes: o.home[part] })),
        { part: "outside-homes", bytes: o.home.outside },
        { part: "measured-roots", bytes: o.home.roots },
      ],
      [
        col("part", "text", (r) => r.part),
        col("bytes", "integer", (r) => r.bytes),
        col("workspaces", "integer", () => o.home.workspaces),
      ],
    ),
};

export async function fleetExport(
  db: Db,
  table: FleetTable,
  range: RangeParams,
  now = new Date(),
): Promise<SomeCsvExport> {
  const overview = await getFleetOverview(db, { ...range, now });
  const reclaimable: Reclaimable = new Map(
    table === "top-agents" ? (await cleanupCatalog(db)).agents.map((a) => [a.agent, a]) : [],
  );
  const { columns, rows } = TABLES[table](overview, reclaimable);
  const span = `${overview.range.from}-${overview.range.to}`;
  return { filename: `fleet-${table}-${table === "series" ? span : overview.range.to}.csv`, columns, rows };
}
