import { requireOwner } from "@/lib/auth/access";
import { handle, json } from "@/lib/http/response";
import { myStorage, type MyStorage } from "@/lib/services/my-storage";

export const dynamic = "force-dynamic";

/** GET /api/v1/me/storage → MyStorage: the caller's own workspaces, what to run on them, their trash and Keeps. */
export const GET = handle(async (request) => {
  const { db, owner } = await requireOwner(request);
  return json<MyStorage>(await myStorage(db, owner));
});
