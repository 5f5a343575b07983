import { getDatabase } from "@/lib/db";
import { ping } from "@/lib/db/open";
import { errorResponse, machineJson } from "@/lib/http/response";

export const dynamic = "force-dynamic";

export async function GET() {
  try {
    const database = await getDatabase();
    await ping(database.db);
    return machineJson({ status: "ok", database: database.kind });
  } catch (err) {
    return errorResponse(503, "database_unavailable", `The database is not available: ${(err as Error).message}`);
  }
}
