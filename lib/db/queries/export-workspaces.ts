import "server-only";
import { sql } from "drizzle-orm";
import { workspaceListQuery } from "@/lib/validations/workspaces";
import { keysetRows, type KeyPart, type PageOptions } from "../keyset";
import type { WorkspaceScope } from "../scope";
import type { Db } from "../types";
import { getRules } from "./findings";
import { change7dColumn, change7dJoin, change7dSince } from "./change-7d";
import { workspaceFilters, type WorkspaceListParams } from "./workspace-list";
import { workspaceSortKeys } from "./workspace-sort";
import { rowColumns, toRow, type RawRow, type RowContext, type WorkspaceRow } from "./workspace-row";

/** What both ways of writing the workspaces CSV read: the list's parameters, order and filters, and the rows' context. */
export async function workspaceExportQuery(db: Db, scope: WorkspaceScope, params: WorkspaceListParams) {
  const p = workspaceListQuery.parse(params);
  const now = params.now ?? new Date();
  const ctx: RowContext = { now, rules: await getRules(db), coderUrl: params.coderUrl ?? null };
  return {
    p,
    ctx,
    keys: workspaceSortKeys(p.sort, p.dir, ctx.rules),
    where: sql.join(workspaceFilters(p, scope), sql` and `),
    since: change7dSince(now),
  };
}

/**
 * Every row of the workspaces table under the list's filters, in the list's order (workspaceSortKeys), over all pages: what GET /api/v1/workspaces returns page by page.
 */
export async function* workspaceExportRows(
  db: Db,
  scope: WorkspaceScope,
  params: WorkspaceListParams,
  opts?: PageOptions,
): AsyncGenerator<WorkspaceRow> {
  const { p, ctx, keys, where, since } = await workspaceExportQuery(db, scope, params);
  // As the list's page: the 7-day change is looked up for a page's rows once they are chosen, unless the order is
  // that change. Joined to every workspace at each page of 2,000, it made the export of 100,000 workspaces 0.06 x
  // a COPY of the same rows (the lookup ran for every row left, before the page's sort).
  const rows = keysetRows<RawRow>(
    db,
    keys,
    (page) =>
      p.sort === "change7d"
        ? sql`select ${rowColumns(ctx)}, ${change7dColumn}${page.keyColumns}
          from workspaces w ${change7dJoin(since)}
          where ${where} and ${page.after}
          order by ${page.order} limit ${page.limit}`
        : sql`select w.*, ${change7dColumn} from (select ${rowColumns(ctx)}${page.keyColumns}
            from workspaces w where ${where} and ${page.after} order by ${page.order} limit ${page.limit}) w
          ${change7dJoin(since)} order by ${page.order}`,
    opts,
  );
  for await (const r of rows) yield toRow(r, ctx);
}

export type AgentWorkspaceRow = {
  id: string;
  name: string;
  owner: string;
  template: string | null;
  bytes: string;
  roots: number;
};

/**
 * Every workspace with data of `agent`, largest first (the agent page's "Largest workspaces", not cut at 10):
 * the agent's rows of root_latest (found through root_latest_agent_idx) summed per workspace, paged by
 * (bytes desc, id); each page sums them again, as the sums are not stored.
 */
export function agentWorkspaceRows(db: Db, agent: string, opts?: PageOptions): AsyncGenerator<AgentWorkspaceRow> {
  const keys: KeyPart[] = [
    { expr: sql`x.bytes`, type: "numeric", dir: "desc" },
    { expr: sql`x.id`, type: "text" },
  ];
  return keysetRows<AgentWorkspaceRow>(
    db,
    keys,
    (page) => sql`select x.*${page.keyColumns} from (
      select r.workspace_id as id, w.name, w.owner, w.template, sum(r.bytes) as bytes, count(*)::int as roots
      from root_latest r join workspaces w on w.id = r.workspace_id
      where r.agent = ${agent} group by r.workspace_id, w.name, w.owner, w.template) x
    where ${page.after} order by ${page.order} limit ${page.limit}`,
    opts,
  );
}
