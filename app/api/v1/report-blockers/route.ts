import { clientIp } from "@/lib/auth/client-ip";
import { getDb } from "@/lib/db";
import { authenticateBlocker, recordBlocker } from "@/lib/enrollment/blockers";
import { bearerToken, readJson } from "@/lib/http/request";
import { handle, machineJson } from "@/lib/http/response";
import { BLOCKER_BODY_BYTES, reportBlockerRequest } from "@/lib/report-format/blockers";

export const dynamic = "force-dynamic";

// The module's script, when it cannot run the reporter: why, so the coverage list can say it.
export const POST = handle(async (request) => {
  const db = await getDb();
  // The credentials first: a client without them learns nothing about the body's schema.
  const tokenWorkspace = await authenticateBlocker(
    db,
    request.headers.get("x-enrollment-key"),
    bearerToken(request),
    clientIp(request.headers),
  );
  const body = await readJson(request, reportBlockerRequest, BLOCKER_BODY_BYTES);
  await recordBlocker(db, tokenWorkspace, body);
  return machineJson({ recorded: true as const });
});
