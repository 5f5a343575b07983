import { sql } from "drizzle-orm";
import { z } from "zod";
import type { MeasuredFinding } from "../finding";
import { defineRule, FULLNESS, num, percent, type ThresholdField } from "../rule";

/**
 * A rule that flags a home volume whose used share of something (space as df's Use%, inodes as df -i's IUse%)
 * is at or above a percentage: critical whatever its growth, since a full disk no longer grows.
 */
export const fullVolumeRule = <K extends "volume-full" | "inodes-full">(rule: {
  id: K;
  title: string;
  description: string;
  /** The workspaces column that holds the percentage. */
  column: "volume_used_pct" | "volume_inodes_used_pct";
  /** The threshold's label and unit on the rules page. */
  fields: { usedPercent: ThresholdField };
  describe: (f: MeasuredFinding) => { message: string; action: string };
}) =>
  defineRule({
    id: rule.id,
    title: rule.title,
    description: rule.description,
    enabled: true,
    severity: "critical",
    params: z.object({ usedPercent: percent }).strict(),
    defaults: { usedPercent: 95 },
    unit: "percent",
    scope: "workspace",
    urgency: FULLNESS,
    rows: (p, { ws }) => {
      const column = sql.identifier(rule.column);
      return sql`select w.id as workspace_id, null::text as root_key, null::text as agent, null::text as path,
        w.${column}::float8 as value, ${num(p.usedPercent)} as threshold
      from workspaces w where w.${column} >= ${p.usedPercent} ${ws}`;
    },
    fields: rule.fields,
    describe: rule.describe,
  });
