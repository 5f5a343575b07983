import { requireCaller } from "@/lib/auth/access";
import { listFindings } from "@/lib/db/queries/findings";
import { readQuery } from "@/lib/http/request";
import { handle, json } from "@/lib/http/response";
import { findingsQuery } from "@/lib/validations/findings";

export const dynamic = "force-dynamic";

/**
 * GET /api/v1/findings?severity=&rule=&agent=&owner=&template=&workspace=&limit=&cursor= → FindingsList: a page of
 * rows (identical findings of one workspace grouped), the next page's cursor, and on the first page the counts.
 */
export const GET = handle(async (request) => {
  const { db, caller } = await requireCaller(request, "member");
  const params = readQuery(request, findingsQuery);
  return json(await listFindings(db, caller.scope, params));
});
