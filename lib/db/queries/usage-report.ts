import "server-only";
import { BadRequestError } from "@/lib/errors";
import { utcDayOf } from "@/lib/series";
import { resolveUsage, type UsageParams, usageQuery } from "@/lib/validations/usage";
import type { z } from "zod";
import type { WorkspaceScope } from "../scope";
import type { Db } from "../types";
import { teamLabels } from "./teams";
import { usageBy, type UsageChart, type UsageFigures } from "./usage";

/** How many rows the chart draws: the largest by byte-days. */
export const USAGE_CHART_ROWS = 8;

/** A row of the usage table: its figures and what the page shows for its key. */
export type UsageTableRow = UsageFigures & { label: string };

/** GET /api/v1/usage's answer, the page's data and the CSV's rows. */
export type UsageReport = UsageParams & {
  days: number;
  rows: UsageTableRow[];
  total: UsageFigures;
  /** The top rows' bytes at the end of each day, for the chart. */
  chart: UsageChart;
};

const NONE: Record<UsageParams["dimension"], string> = {
  organization: "(no organization)",
  group: "(in no group)",
  owner: "(no owner)",
  template: "(no template)",
  agent: "(no agent)",
};

/**
 * Resolves the query (400 with its own code: an unknown dimension, a range that ends in the future, one without
 * data) and reads the usage table, its total and its chart.
 */
export async function getUsageReport(
  db: Db,
  scope: WorkspaceScope,
  q: z.output<typeof usageQuery>,
  now = new Date(),
): Promise<UsageReport> {
  const resolved = resolveUsage(q, utcDayOf(now));
  if ("problem" in resolved) throw new BadRequestError(resolved.problem.message, undefined, resolved.problem.code);
  const p = resolved.params;
  const range = { from: p.from, to: p.to };
  const { rows, total, chart } = await usageBy(db, scope, p.dimension, range, USAGE_CHART_ROWS);
  if (total.workspaces === 0 && total.freedBytes === 0) {
    throw new BadRequestError(
      `No workspace ${scope.kind === "owner" ? "of yours " : ""}has usage from ${p.from} to ${p.to}: the daily roll-ups hold nothing for that range.`,
      undefined,
      "no_data",
    );
  }
  const names =
    p.dimension === "organization" || p.dimension === "group"
      ? await teamLabels(
          db,
          p.dimension,
          rows.map((r) => r.key),
        )
      : new Map<string, string>();
  return {
    ...p,
    days: chart.points.length,
    rows: rows.map((r) => ({ ...r, label: r.key ? (names.get(r.key) ?? r.key) : NONE[p.dimension] })),
    total,
    chart,
  };
}
