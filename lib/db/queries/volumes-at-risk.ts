import "server-only";
import { sql } from "drizzle-orm";
import { differenceInMilliseconds } from "date-fns";
import { millisecondsInDay } from "date-fns/constants";
import type { RuleSet } from "@/lib/findings/rules";
import type { VolumeSummary } from "@/lib/format/volume";
import { encodeAtRiskCursor } from "@/lib/validations/volumes";
import { notDeleted, workspacesAsW } from "../deleted";
import { keysetAfter, type KeyPart } from "../keyset";
import { rowsOf, type Db } from "../types";
import { fullCondition, fullConditions, fullThresholds, toVolume, volumeColumns, type VolumeColumns } from "./volume";
import { volumesWhy, type VolumeWhy } from "./volume-why";

// Every volume that is full or will be within N days, in one order for the overview's list and the at-risk page:
// full ones first (0 days), then by the forecast day they fill; within a day, least free space first.

/** The order both read, all non-null and ascending, so a page continues after its last row by one comparison. */
export const atRiskKeys = (isFull: ReturnType<typeof fullCondition>): KeyPart[] => [
  {
    expr: sql`(case when ${isFull} then '-infinity'::timestamptz else coalesce(w.forecast_full_at, 'infinity') end)`,
    type: "timestamptz",
  },
  { expr: sql`coalesce(w.volume_free_bytes, 0)::float8`, type: "float8" },
  { expr: sql`w.id`, type: "text" },
];

/** ORDER BY of the volumes at risk: the overview's list reads them in the page's order. */
/** A volume at risk as the database answers it (the overview's list and the at-risk page read the same columns). */
export type VolumeAtRiskRow = VolumeColumns & {
  id: string;
  name: string;
  owner: string;
  forecast_full_at: Date | string | null;
  growth_bytes_per_day: number | null;
  is_full: boolean;
};

export const atRiskOrder = (isFull: ReturnType<typeof fullCondition>) =>
  sql.join(
    atRiskKeys(isFull).map((k) => k.expr),
    sql`, `,
  );

/** SQL condition (alias w): full by the rules, or forecast to fill within `days` of `now` (null: full only). */
export function atRiskCondition(rules: RuleSet, now: Date, days: number | null) {
  const isFull = fullCondition(fullThresholds(rules));
  const filling =
    days === null
      ? sql`false`
      : sql`w.forecast_full_at <= ${now.toISOString()}::timestamptz + make_interval(days => ${days})`;
  return { isFull, where: sql`(${isFull} or (${filling})) and ${notDeleted}` };
}

/** How many volumes are at risk within `days` (the overview's "+N more"). */
export async function countVolumesAtRisk(db: Db, rules: RuleSet, now: Date, days: number | null): Promise<number> {
  const { where } = atRiskCondition(rules, now, days);
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(workspacesAsW)
    .where(where);
  return row.n;
}

export type AtRiskVolume = {
  workspace: { id: string; name: string; owner: string };
  volume: VolumeSummary;
  /** 0 for a full volume. */
  daysUntilFull: number | null;
  forecastFullAt: string | null;
  growthBytesPerDay: number | null;
  /** What the volume ran out of (space before inodes when both); null while it is only filling. */
  fullBy: "space" | "inodes" | null;
  /** What fills it: its largest roots and folders, its roots with most files, what grew over 7 days. */
  why: VolumeWhy;
};

export type AtRiskPage = {
  days: number;
  /** Every volume at risk, and how many of them are full: out of space, out of inodes (the two add up to full). */
  total: number;
  full: number;
  outOfSpace: number;
  outOfInodes: number;
  volumes: AtRiskVolume[];
  /** Where the next page starts (the `after` of its request); null on the last page. */
  next: string | null;
};

type Row = VolumeAtRiskRow & {
  is_space_full: boolean;
  k0: string;
  k1: string;
  k2: string;
};

/** One page of the volumes at risk within `days`, after `after` (the previous page's `next`). */
// The page and why each volume fills are SQL composed from the volume and growth fragments the overview shares (keyset
// order, a window per workspace): they stay SQL through db.execute.
export async function volumesAtRiskPage(
  db: Db,
  opts: { rules: RuleSet; now: Date; days: number; limit: number; after?: string[] | null },
): Promise<AtRiskPage> {
  const { isFull, where } = atRiskCondition(opts.rules, opts.now, opts.days);
  const { space } = fullConditions(fullThresholds(opts.rules));
  const keys = atRiskKeys(isFull);
  const [counts, rows] = await Promise.all([
    db.execute(sql`select count(*)::int as total, count(*) filter (where ${isFull})::int as full,
        count(*) filter (where ${space})::int as space
      from workspaces w where ${where}`),
    db.execute(sql`select w.id, w.name, w.owner, w.forecast_full_at, ${volumeColumns},
        w.growth_bytes_per_day::float8 as growth_bytes_per_day, ${isFull} as is_full, ${space} as is_space_full,
        ${keys[0].expr}::text as k0, ${keys[1].expr}::text as k1, ${keys[2].expr}::text as k2
      from workspaces w where ${where} and ${keysetAfter(keys, opts.after ?? null)}
      order by ${atRiskOrder(isFull)} limit ${opts.limit + 1}`),
  ]);
  const [count] = rowsOf<{ total: number; full: number; space: number }>(counts);
  const page = rowsOf<Row>(rows);
  const shown = page.slice(0, opts.limit);
  const why = await volumesWhy(
    db,
    shown.map((r) => r.id),
    opts.now,
  );
  const thresholds = fullThresholds(opts.rules);
  const last = shown.at(-1);
  return {
    days: opts.days,
    total: count.total,
    full: count.full,
    outOfSpace: count.space,
    outOfInodes: count.full - count.space,
    volumes: shown.flatMap((r) => {
      const volume = toVolume(r, thresholds);
      if (!volume) return [];
      const at = r.is_full || r.forecast_full_at === null ? null : new Date(r.forecast_full_at);
      return [
        {
          workspace: { id: r.id, name: r.name, owner: r.owner },
          volume,
          daysUntilFull: r.is_full ? 0 : at ? differenceInMilliseconds(at, opts.now) / millisecondsInDay : null,
          forecastFullAt: at ? at.toISOString() : null,
          growthBytesPerDay: r.growth_bytes_per_day === null ? null : Number(r.growth_bytes_per_day),
          fullBy: r.is_space_full ? "space" : r.is_full ? "inodes" : null,
          why: why.get(r.id)!,
        },
      ];
    }),
    next: page.length > opts.limit && last ? encodeAtRiskCursor([last.k0, last.k1, last.k2]) : null,
  };
}

/** Every volume at risk within `days`, in the page's order, read by key a page at a time (the CSV export). */
export async function* everyVolumeAtRisk(
  db: Db,
  opts: { rules: RuleSet; now: Date; days: number; pageSize?: number },
): AsyncGenerator<AtRiskVolume> {
  let after: string[] | null = null;
  do {
    const page = await volumesAtRiskPage(db, { ...opts, limit: opts.pageSize ?? 200, after });
    yield* page.volumes;
    // `next` is the last row's key as JSON (encodeAtRiskCursor), made just above
    after = page.next === null ? null : (JSON.parse(page.next) as string[]);
  } while (after !== null);
}
