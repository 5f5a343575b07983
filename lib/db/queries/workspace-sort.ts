import "server-only";
import { sql } from "drizzle-orm";
import type { RuleSet } from "@/lib/findings/rules";
import type { WorkspaceSortColumn } from "@/lib/validations/workspaces";
import type { KeyPart } from "../keyset";
import { change7d } from "./change-7d";
import { fullCondition, fullThresholds } from "./volume";

// The workspaces table's order, one definition for the table's pages and its CSV export (keyset). A state that
// is worse than any number sorts as beyond every number, not with the blanks:
// - "Full in": a full volume (space or inodes, at the full rules' thresholds) has no forecast (a full disk no
//   longer grows) but is past every one: it sorts as full since ever (-infinity), before the soonest forecast;
//   a volume not growing ("—") comes last either way;
// - "Volume": a full volume (space or inodes) sorts as fuller than any Use%, so a volume out of inodes at 60 %
//   space is among the full ones, not in the middle;
// - "Last report": a workspace that never reported is older than any report.

/** The sort keys (alias w; `c` for the 7-day change's join) for `sort` in `dir`, the id last to break ties. */
export function workspaceSortKeys(sort: WorkspaceSortColumn, dir: "asc" | "desc", rules: RuleSet): KeyPart[] {
  const isFull = fullCondition(fullThresholds(rules));
  const id: KeyPart = { expr: sql`w.id`, type: "text", dir };
  const one = (expr: KeyPart["expr"], type: string, nullable: boolean): KeyPart[] => [
    { expr, type, dir, nulls: nullable ? "last" : undefined },
    id,
  ];
  switch (sort) {
    case "name":
      return one(sql`w.name`, "text", false);
    case "owner":
      return one(sql`w.owner`, "text", false);
    case "template":
      return one(sql`w.template`, "text", true);
    case "total":
      return one(sql`w.total_bytes`, "bigint", false);
    case "change7d":
      return one(change7d, "bigint", true);
    case "largestAgent":
      return one(sql`w.largest_agent`, "text", true);
    case "volumeUsed":
      // df's Use%, as the column shows it, after whether the volume is full.
      return [{ expr: isFull, type: "boolean", dir }, ...one(sql`w.volume_used_pct`, "smallint", true)];
    case "daysUntilFull":
      return one(
        sql`(case when ${isFull} then '-infinity'::timestamptz else w.forecast_full_at end)`,
        "timestamptz",
        true,
      );
    case "lastReport":
      return one(sql`coalesce(w.last_collected_at, '-infinity'::timestamptz)`, "timestamptz", false);
  }
}
