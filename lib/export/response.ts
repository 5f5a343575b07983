import "server-only";
import type { SomeCsvExport } from "@/lib/csv/columns";
import type { Db } from "@/lib/db";
import type { WorkspaceScope } from "@/lib/db/scope";
import { csvResponse } from "@/lib/http/csv";
import type { Role } from "@/lib/validations/auth";
import { requireCaller } from "@/lib/auth/access";
import { writeAudit } from "@/lib/services/transaction";

/**
 * Every CSV download: a viewer at least (the audit log: an admin; a member the exports of their own workspaces,
 * which `make` reads within the scope it is given), asked before the parameters are read (an anonymous caller learns
 * nothing about them), and an audit entry naming the file and the filters it was cut with. A download changes
 * nothing, so there is no transaction for its entry to join: it is written once the first row is read and the
 * download about to start (an export that fails before it is an error response, not a download), and a download
 * whose entry cannot be written is not sent.
 */
export async function exportResponse(
  request: Request,
  make: (db: Db, scope: WorkspaceScope) => SomeCsvExport | Promise<SomeCsvExport>,
  role: Role = "viewer",
): Promise<Response> {
  const { db, who, caller } = await requireCaller(request, role);
  const exp = await make(db, caller.scope);
  const response = await csvResponse(exp);
  try {
    await writeAudit(db, who, {
      action: "export.downloaded",
      target: exp.filename,
      details: { path: new URL(request.url).pathname, query: Object.fromEntries(new URL(request.url).searchParams) },
    });
  } catch (err) {
    // Ends the rows' reads, which the opened stream would otherwise hold until it is collected.
    await response.body?.cancel();
    throw err;
  }
  return response;
}
