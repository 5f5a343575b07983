import { requireWorkspace } from "@/lib/auth/access";
import { parseJson, readBody } from "@/lib/http/request";
import { handle, machineJson } from "@/lib/http/response";
import { settleInboxOutcomes } from "@/lib/services/coder-inbox";
import { inboxOutcomes } from "@/lib/validations/coder-inbox";
import { validate } from "@/lib/validations/validate";

export const dynamic = "force-dynamic";

/**
 * POST /api/v1/inbox/outcomes (workspace token) { outcomes } → { applied }: what became of the Coder Inbox notices
 * this workspace's reporter was handed; an outcome for a notice it does not hold changes nothing.
 */
export const POST = handle(async (request) => {
  const { db, workspaceId } = await requireWorkspace(request);
  const { outcomes } = validate(inboxOutcomes, parseJson(await readBody(request, 256 * 1024), request));
  return machineJson<{ applied: number }>({ applied: await settleInboxOutcomes(db, workspaceId, outcomes) });
});
