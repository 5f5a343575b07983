import { requireEnrollmentKey } from "@/lib/auth/access";
import { enrollWorkspace } from "@/lib/enrollment/workspaces";
import { bearerToken, readJson } from "@/lib/http/request";
import { handle, machineJson } from "@/lib/http/response";
import { LIMITS } from "@/lib/report-format/constants";
import { enrollRequest } from "@/lib/report-format/schema";

export const dynamic = "force-dynamic";

export const POST = handle(async (request) => {
  // The key first: a client without it learns nothing about the body's schema and cannot make the server parse.
  const db = await requireEnrollmentKey(request);
  const body = await readJson(request, enrollRequest, LIMITS.enrollBodyBytes);
  const result = await enrollWorkspace(
    db,
    body.workspace,
    request.headers.get("x-enrollment-key"),
    bearerToken(request),
    body.claim ?? null,
  );
  return machineJson(result);
});
