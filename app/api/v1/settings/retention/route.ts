import { requireCaller } from "@/lib/auth/access";
import { updateRetention } from "@/lib/services/retention";
import { readJson } from "@/lib/http/request";
import { handle, json } from "@/lib/http/response";
import { retentionUpdate, type RetentionDays, type RetentionUpdate } from "@/lib/validations/settings";

export const dynamic = "force-dynamic";

/**
 * PUT /api/v1/settings/retention { raw?, rollups?, audit?, cleanup? } (days) → the retention in effect. Admin
 * only. 422 when a value is out of its bounds or the roll-ups would not outlive raw history. Takes effect at
 * the next maintenance run (hourly).
 */
export const PUT = handle(async (request) => {
  const { db, who } = await requireCaller(request, "admin");
  const body = (await readJson(request, retentionUpdate, 16 * 1024)) as RetentionUpdate;
  const retention = await updateRetention({ db, who }, body);
  return json<{ retention: RetentionDays }>({ retention });
});
