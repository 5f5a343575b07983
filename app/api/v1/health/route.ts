import { getDatabase } from "@/lib/db";
import { ping } from "@/lib/db/open";
import { DATABASE_RETRY_AFTER_SECONDS, errorResponse, machineJson } from "@/lib/http/response";

export const dynamic = "force-dynamic";

export async function GET() {
  try {
    const database = await getDatabase();
    await ping(database.db);
    return machineJson({ status: "ok", database: database.kind });
  } catch (err) {
    // The driver's text can name hosts, users and paths: it goes to the log, the caller gets the cause.
    console.error("[health] database unreachable:", err);
    return errorResponse(503, "database_unavailable", "The database is unreachable.", undefined, {
      "retry-after": String(DATABASE_RETRY_AFTER_SECONDS),
    });
  }
}
