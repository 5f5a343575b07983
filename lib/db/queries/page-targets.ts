import "server-only";
import { and, eq, sql } from "drizzle-orm";
import { unionAll } from "drizzle-orm/pg-core";
import type { PageTarget } from "@/lib/validations/page-targets";
import { inScope, type WorkspaceScope } from "../scope";
import { cleanupPolicies, cleanupRuns, fleetDelta, rootLatest, workspaces } from "../schema";
import type { Db } from "../types";
import { isKnownAgent } from "./agents";
import { moduleExists } from "./modules";

/**
 * Whether the record a page names exists for this caller, by one primary-key or index probe: a workspace within
 * the caller's scope, an agent the catalog knows or the data has seen, a cleanup run or policy.
 */
export async function pageTargetExists(db: Db, scope: WorkspaceScope, target: PageTarget): Promise<boolean> {
  if (target.kind === "invalid") return false;
  if (target.kind === "agent" && isKnownAgent(target.id)) return true;
  if (target.kind === "module") return moduleExists(db, target.id);
  const id = target.id;
  const one = { one: sql<number>`1` };
  const probe = {
    workspace: () =>
      db
        .select(one)
        .from(workspaces)
        .where(and(eq(workspaces.id, id), inScope(scope, workspaces.owner))),
    agent: () =>
      unionAll(
        db.select(one).from(rootLatest).where(eq(rootLatest.agent, id)),
        db.select(one).from(fleetDelta).where(eq(fleetDelta.agent, id)),
      ),
    run: () => db.select(one).from(cleanupRuns).where(eq(cleanupRuns.id, id)),
    policy: () => db.select(one).from(cleanupPolicies).where(eq(cleanupPolicies.id, id)),
  }[target.kind];
  return (await probe().limit(1)).length > 0;
}
