import { getDb } from "@/lib/db";
import { enrollWorkspace } from "@/lib/enrollment";
import { bearerToken, readJson } from "@/lib/http/request";
import { handle, machineJson } from "@/lib/http/response";
import { LIMITS } from "@/lib/report/constants";
import { enrollRequest } from "@/lib/report/schema";

export const dynamic = "force-dynamic";

export const POST = handle(async (request) => {
  const body = await readJson(request, enrollRequest, LIMITS.enrollBodyBytes);
  const db = await getDb();
  const result = await enrollWorkspace(db, body.workspace, request.headers.get("x-enrollment-key"), bearerToken(request));
  return machineJson(result);
});
