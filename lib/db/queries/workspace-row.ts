import "server-only";
import { differenceInMilliseconds } from "date-fns";
import { millisecondsInDay } from "date-fns/constants";
import { sql } from "drizzle-orm";
import type { WorkspaceRef } from "@/lib/findings/finding";
import type { RuleSet } from "@/lib/findings/rules";
import { isSilent } from "@/lib/findings/silence";
import { silentHours } from "@/lib/findings/rules";
import { fullThresholds, toVolume, volumeColumns, type VolumeColumns, type VolumeSummary } from "./volume";

export const numOrNull = (v: unknown) => (v === null || v === undefined ? null : Number(v));

/** What a workspace row is read against: the instant, and the rules in effect (what full and silent mean). */
export type RowContext = { now: Date; rules: RuleSet };

/** Columns of a workspace row (alias `w`), shared by the workspaces table, its export and the workspace page. */
export const rowColumns = (ctx: RowContext) => sql`w.id, w.name, w.owner, w.template, w.agent_name,
  w.total_bytes::float8 as total_bytes, w.root_count, w.largest_agent,
  w.largest_agent_bytes::float8 as largest_agent_bytes, ${volumeColumns},
  w.growth_bytes_per_day::float8 as growth_bytes_per_day, w.forecast_full_at, w.last_collected_at,
  ${isSilent(silentHours(ctx.rules), sql`${ctx.now.toISOString()}::timestamptz`)} as silent`;

export type RawRow = VolumeColumns & {
  id: string;
  name: string;
  owner: string;
  template: string | null;
  agent_name: string | null;
  total_bytes: number;
  root_count: number;
  largest_agent: string | null;
  largest_agent_bytes: number | null;
  growth_bytes_per_day: number | null;
  forecast_full_at: Date | string | null;
  last_collected_at: Date | string | null;
  silent: boolean;
  /** See change-7d.ts: each query joins it its own way. */
  change_7d_bytes: number | null;
};

export type WorkspaceRow = WorkspaceRef & {
  template: string | null;
  agentName: string | null;
  totalBytes: number;
  rootCount: number;
  /** totalBytes minus the workspace's daily total on or before 7 days ago; null without such a day (change-7d.ts). */
  change7dBytes: number | null;
  largestAgent: string | null;
  largestAgentBytes: number | null;
  /** The home volume as df shows it; null when the reporter sent none. */
  volume: VolumeSummary | null;
  growthBytesPerDay: number | null;
  forecastFullAt: string | null;
  /** Days from now until forecastFullAt (fractional, may be negative); null when not growing. */
  daysUntilFull: number | null;
  lastCollectedAt: string | null;
  /** No report for over the silent-workspace rule's hours (counted from enrollment when it never reported). */
  silent: boolean;
};

export function toRow(r: RawRow, { now, rules }: RowContext): WorkspaceRow {
  const forecast = r.forecast_full_at === null ? null : new Date(r.forecast_full_at);
  const last = r.last_collected_at === null ? null : new Date(r.last_collected_at);
  return {
    id: r.id,
    name: r.name,
    owner: r.owner,
    template: r.template,
    agentName: r.agent_name,
    totalBytes: Number(r.total_bytes),
    rootCount: Number(r.root_count),
    change7dBytes: numOrNull(r.change_7d_bytes),
    largestAgent: r.largest_agent,
    largestAgentBytes: numOrNull(r.largest_agent_bytes),
    volume: toVolume(r, fullThresholds(rules)),
    growthBytesPerDay: numOrNull(r.growth_bytes_per_day),
    forecastFullAt: forecast ? forecast.toISOString() : null,
    daysUntilFull: forecast ? differenceInMilliseconds(forecast, now) / millisecondsInDay : null,
    lastCollectedAt: last ? last.toISOString() : null,
    silent: r.silent,
  };
}
