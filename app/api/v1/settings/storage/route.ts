import { requireCaller } from "@/lib/auth/access";
import { getStorageSettings, type StorageSettings } from "@/lib/db/queries/storage";
import { handle, json } from "@/lib/http/response";

export const dynamic = "force-dynamic";

/** GET /api/v1/settings/storage → StorageSettings: retention in effect, horizons, table sizes, last maintenance run */
export const GET = handle(async (request) => {
  const { db } = await requireCaller(request, "viewer");
  return json<StorageSettings>(await getStorageSettings(db));
});
