import { requireCaller } from "@/lib/auth/access";
import { listAudit } from "@/lib/db/queries/audit";
import { readQuery } from "@/lib/http/request";
import { handle, json } from "@/lib/http/response";
import { auditQuery } from "@/lib/validations/audit";

export const dynamic = "force-dynamic";

/** GET /api/v1/audit?actor=&action=&from=&to=&limit=&cursor= → { entries, nextCursor } (admin), newest first. */
export const GET = handle(async (request) => {
  const { db } = await requireCaller(request, "admin");
  const { cursor, limit, ...filters } = readQuery(request, auditQuery);
  return json(await listAudit(db, filters, { cursor, limit }));
});
