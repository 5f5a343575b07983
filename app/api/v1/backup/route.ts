import { backupResponse } from "@/lib/export/backup";
import { handle } from "@/lib/http/response";

export const dynamic = "force-dynamic";

/** GET /api/v1/backup?secrets=1 → a backup of the dashboard's database (admin), streamed as it is written. */
export const GET = handle(backupResponse);
