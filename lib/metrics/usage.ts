import "server-only";
import { Gauge, Registry } from "prom-client";
import type { Db } from "@/lib/db";
import { getUsageReport, type UsageReport } from "@/lib/db/queries/usage-report";
import { FLEET } from "@/lib/db/scope";
import { AppError } from "@/lib/errors";

// The usage page's figures for the month to date, per Coder organization (its name; "" for workspaces of none):
// byte-days are the average times the days so far. Organizations are few, so the series stay few (owners and groups would not, and are left to the page and CSV).

const FIGURES = [
  ["coder_storage_organization_average_bytes", "Average bytes this month to date (byte-days / days)", "avgBytes"],
  ["coder_storage_organization_peak_bytes", "The largest day's bytes this month to date", "peakBytes"],
  ["coder_storage_organization_freed_bytes", "Bytes cleanups freed this month to date", "freedBytes"],
] as const;

async function monthToDate(db: Db, now: Date): Promise<UsageReport | null> {
  try {
    return await getUsageReport(db, FLEET, { dimension: "organization" }, now);
  } catch (err) {
    // A fleet with no usage this month yet has no series, not a failed scrape.
    if (err instanceof AppError && err.code === "no_data") return null;
    throw err;
  }
}

export async function usageRegistry(db: Db, now: Date): Promise<Registry> {
  const r = new Registry();
  const report = await monthToDate(db, now);
  for (const [name, help, field] of FIGURES) {
    const g = new Gauge({ name, help, labelNames: ["organization"] as const, registers: [r] });
    for (const row of report?.rows ?? []) g.set({ organization: row.key ? row.label : "" }, row[field]);
  }
  return r;
}
