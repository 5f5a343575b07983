import "server-only";
import { PassThrough, Readable } from "node:stream";
import { backupDatabase } from "@/lib/backup/run";
import { FILE_SUFFIX } from "@/lib/backup/format";
import { requireCaller } from "@/lib/auth/access";
import { getDatabase } from "@/lib/db";
import { readQuery } from "@/lib/http/request";
import { backupQuery } from "@/lib/validations/backup";
import { writeAudit } from "@/lib/services/transaction";

/**
 * The app's own backup, streamed to an admin as it is written: the one way to back up the embedded database
 * while the app holds its folder. Audited before the first byte. On the embedded database the app's other
 * queries, ingest among them, wait while it is written (reporters spool meanwhile). A backup that fails midway
 * ends the download early: the file is then cut short, and `restore --check` refuses it.
 */
export async function backupResponse(request: Request): Promise<Response> {
  const { db, who } = await requireCaller(request, "admin");
  const withSecrets = readQuery(request, backupQuery).secrets === "1";
  const filename = `storage-backup-${new Date().toISOString().replace(/[:.]/g, "-")}${FILE_SUFFIX}`;
  await writeAudit(db, who, { action: "backup.downloaded", target: filename, details: { withSecrets } });
  const body = new PassThrough();
  backupDatabase(await getDatabase(), body, { withSecrets }).catch((err: Error) => {
    console.error(`[backup] download failed: ${err.message}`);
    body.destroy(err);
  });
  return new Response(Readable.toWeb(body) as ReadableStream<Uint8Array>, {
    headers: {
      "content-type": "application/gzip",
      "content-disposition": `attachment; filename="${filename}"`,
      "cache-control": "no-store",
    },
  });
}
