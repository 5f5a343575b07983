import { requireCaller } from "@/lib/auth/access";
import { readBody } from "@/lib/http/request";
import { handle, json } from "@/lib/http/response";
import { uploadTeams } from "@/lib/services/team-upload";

export const dynamic = "force-dynamic";

/**
 * POST /api/v1/teams/upload, a CSV body with the columns owner and team → { teams, owners, unknownOwners }: an
 * owner → team mapping for the usage by group, replacing the one uploaded before. 400 malformed_mapping: nothing changed.
 */
export const POST = handle(async (request) => {
  const { db, who } = await requireCaller(request, "admin");
  const body = await readBody(request, 8 * 1024 * 1024);
  return json(await uploadTeams({ db, who }, body.toString("utf8")));
});
