import { auditActor, requireCaller } from "@/lib/auth/access";
import { createRun } from "@/lib/services/cleanup-runs";
import { listRuns, type RunList } from "@/lib/db/queries/cleanup-views";
import { readJson, readQuery } from "@/lib/http/request";
import { handle, json } from "@/lib/http/response";
import { createRunRequest, runListQuery } from "@/lib/validations/cleanup";

export const dynamic = "force-dynamic";

/** GET /api/v1/cleanup/runs?cursor=&limit= → { runs, nextCursor }, newest first, each with its progress. */
export const GET = handle(async (request) => {
  const { db } = await requireCaller(request, "viewer");
  return json<RunList>(await listRuns(db, readQuery(request, runListQuery)));
});

/** POST /api/v1/cleanup/runs (run request + confirmBytes) → 201 { id, jobs }; 409 when the preview moved by over 10 %. Admin. */
export const POST = handle(async (request) => {
  const { db, caller, ip, userAgent } = await requireCaller(request, "admin");
  const body = await readJson(request, createRunRequest, 1024 * 1024);
  return json(await createRun(db, body, { actor: auditActor(caller), ip, userAgent }), { status: 201 });
});
