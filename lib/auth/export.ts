import "server-only";
import type { SomeCsvExport } from "@/lib/csv/columns";
import type { Db } from "@/lib/db";
import { recordAudit } from "@/lib/db/queries/audit";
import { csvResponse } from "@/lib/http/csv";
import type { Role } from "@/lib/validations/auth";
import { auditActor, requireCaller } from "./access";

/**
 * Every CSV download: a viewer at least (the audit log: an admin), asked before the parameters are read (an anonymous caller learns
 * nothing about them), and an audit entry naming the file and the filters it was cut with.
 */
export async function exportResponse(
  request: Request,
  make: (db: Db) => SomeCsvExport | Promise<SomeCsvExport>,
  role: Role = "viewer",
): Promise<Response> {
  const { db, caller, ip, userAgent } = await requireCaller(request, role);
  const exp = await make(db);
  const response = await csvResponse(exp);
  await recordAudit(db, {
    actor: auditActor(caller),
    action: "export.downloaded",
    target: exp.filename,
    details: { path: new URL(request.url).pathname, query: Object.fromEntries(new URL(request.url).searchParams) },
    ip,
    userAgent,
  });
  return response;
}
