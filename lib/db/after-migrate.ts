import "server-only";
import { applyFunctions } from "./functions";
import { getRules } from "./queries/findings";
import { rewriteStaleKeptRules } from "./queries/kept-findings";
import { rewriteStaleFleetSeries } from "./queries/workspace-series";
import type { Db } from "./types";

/**
 * What every opener does once the migrations are applied, before the app reads: the changed function files,
 * then the kept aggregates this code computes otherwise (findings, the fleet's series).
 */
export async function afterMigrate(db: Db): Promise<void> {
  await applyFunctions(db);
  await rewriteStaleKeptRules(db, await getRules(db));
  await rewriteStaleFleetSeries(db);
}
