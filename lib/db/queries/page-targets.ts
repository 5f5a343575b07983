import "server-only";
import { sql } from "drizzle-orm";
import type { PageTarget } from "@/lib/validations/page-targets";
import { inScope, type WorkspaceScope } from "../scope";
import { rowsOf, type Db } from "../types";
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
  const probe = {
    workspace: sql`select 1 from workspaces w where w.id = ${id} and ${inScope(scope, sql`w.owner`)}`,
    agent: sql`select 1 from root_latest where agent = ${id} union all select 1 from fleet_delta where agent = ${id}`,
    run: sql`select 1 from cleanup_runs where id = ${id}::uuid`,
    policy: sql`select 1 from cleanup_policies where id = ${id}::uuid`,
  }[target.kind];
  const [row] = rowsOf<{ found: boolean }>(await db.execute(sql`select exists (${probe}) as found`));
  return row?.found === true;
}
