import "server-only";
import { and, eq, inArray } from "drizzle-orm";
import type { Cause, NoticeKind } from "@/lib/notify/types";
import { noticeStates, rootLatest } from "../schema";
import type { Db } from "../types";

// What the cleanup ahead notice reads besides the policies' previews (lib/services/cleanup-ahead.ts).

/** The workspaces whose owner was last told of `kind`: a state that no longer holds is cleared. */
export async function workspacesTold(db: Db, kind: NoticeKind): Promise<string[]> {
  const rows = await db.select({ id: noticeStates.workspaceId }).from(noticeStates).where(eq(noticeStates.kind, kind));
  return rows.map((r) => r.id);
}

/** The latest roots of `workspaceIds` by root key, per workspace: agent, folder and bytes. */
export async function latestRootsByKey(
  db: Db,
  workspaceIds: string[],
  rootKeys: string[],
): Promise<Map<string, Map<string, Cause>>> {
  const out = new Map<string, Map<string, Cause>>();
  if (workspaceIds.length === 0 || rootKeys.length === 0) return out;
  const rows = await db
    .select({
      workspaceId: rootLatest.workspaceId,
      rootKey: rootLatest.rootKey,
      agent: rootLatest.agent,
      path: rootLatest.path,
      bytes: rootLatest.bytes,
    })
    .from(rootLatest)
    .where(and(inArray(rootLatest.workspaceId, workspaceIds), inArray(rootLatest.rootKey, rootKeys)));
  for (const r of rows) {
    const roots = out.get(r.workspaceId) ?? new Map<string, Cause>();
    roots.set(r.rootKey, { agent: r.agent, path: r.path, bytes: Number(r.bytes) });
    out.set(r.workspaceId, roots);
  }
  return out;
}
