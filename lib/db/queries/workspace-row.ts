import "server-only";
import { differenceInMilliseconds } from "date-fns";
import { millisecondsInDay } from "date-fns/constants";
import { sql } from "drizzle-orm";
import { coderWorkspaceHref } from "@/lib/coder/config";
import type { WorkspaceRef } from "@/lib/findings/finding";
import type { RuleSet } from "@/lib/findings/rules";
import { isSilent } from "@/lib/findings/silence";
import { silentHours } from "@/lib/findings/rules";
import { fullThresholds, toVolume, volumeColumns, type VolumeColumns, type VolumeSummary } from "./volume";

export const numOrNull = (v: unknown) => (v === null || v === undefined ? null : Number(v));

/**
 * What a workspace row is read against: the instant, the rules in effect (what full and silent mean), and
 * Coder's access URL for the rows' links (null: no links), which the caller passes from the configuration.
 */
export type RowContext = { now: Date; rules: RuleSet; coderUrl: string | null };

/**
 * Columns of a workspace row (alias `w`), shared by the workspaces table, its export and the workspace page. The
 * 7-day change's kept bases last: a page's rows are chosen first and their change joined after (change-7d.ts).
 */
export const rowColumns = (ctx: RowContext) => sql`w.id, w.name, w.owner, w.template, w.agent_name,
  w.total_bytes::float8 as total_bytes, w.root_count, w.largest_agent,
  w.largest_agent_bytes::float8 as largest_agent_bytes, ${volumeColumns},
  w.growth_bytes_per_day::float8 as growth_bytes_per_day, w.forecast_full_at, w.last_collected_at,
  ${isSilent(silentHours(ctx.rules), sql`${ctx.now.toISOString()}::timestamptz`)} as silent,
  w.coder_status, w.coder_dormant_at, w.coder_deleting_at, w.coder_last_used_at, w.coder_healthy, w.coder_synced_at,
  w.deleted_at, w.change_since, w.change_base_bytes, w.change_next_bytes`;

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
  coder_status: string | null;
  coder_dormant_at: Date | string | null;
  coder_deleting_at: Date | string | null;
  coder_last_used_at: Date | string | null;
  coder_healthy: boolean | null;
  coder_synced_at: Date | string | null;
  deleted_at: Date | string | null;
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
  /** Coder's view of the workspace (the workspace sync); all null before a sync saw it. */
  coder: CoderView;
};

/** What Coder says of a workspace, as the workspace sync last read it. */
export type CoderView = {
  /** Its latest build's status (running, stopped, ..., deleted); null when no sync saw it. */
  status: string | null;
  dormantAt: string | null;
  /** When Coder deletes it by itself. */
  deletingAt: string | null;
  lastUsedAt: string | null;
  healthy: boolean | null;
  syncedAt: string | null;
  /** When a sync found it deleted in Coder. */
  deletedAt: string | null;
  /** Its page in Coder (`<CODER_URL>/@<owner>/<name>`); null without CODER_URL. */
  href: string | null;
};

const iso = (v: Date | string | null) => (v === null ? null : new Date(v).toISOString());

export function toCoderView(r: RawRow, base: string | null): CoderView {
  return {
    status: r.coder_status,
    dormantAt: iso(r.coder_dormant_at),
    deletingAt: iso(r.coder_deleting_at),
    lastUsedAt: iso(r.coder_last_used_at),
    healthy: r.coder_healthy,
    syncedAt: iso(r.coder_synced_at),
    deletedAt: iso(r.deleted_at),
    href: base ? coderWorkspaceHref(base, r.owner, r.name) : null,
  };
}

export function toRow(r: RawRow, { now, rules, coderUrl }: RowContext): WorkspaceRow {
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
    coder: toCoderView(r, coderUrl),
  };
}
