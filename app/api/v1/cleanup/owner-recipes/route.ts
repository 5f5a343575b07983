import { requireCaller } from "@/lib/auth/access";
import { readJson } from "@/lib/http/request";
import { handle, json } from "@/lib/http/response";
import { ownerRecipes, setOwnerRecipe } from "@/lib/services/owner-cleanup";
import { ownerRecipeUpdate } from "@/lib/validations/owners";

export const dynamic = "force-dynamic";

/** GET /api/v1/cleanup/owner-recipes → { recipes: { recipe, ownersMayRun }[] }: which recipes owners may run. */
export const GET = handle(async (request) => {
  const { db } = await requireCaller(request, "viewer");
  return json({ recipes: await ownerRecipes(db) });
});

/** PUT /api/v1/cleanup/owner-recipes { recipe, ownersMayRun } → the recipe's mark (audited; never a cache). Admin. */
export const PUT = handle(async (request) => {
  const { db, who } = await requireCaller(request, "admin");
  const body = await readJson(request, ownerRecipeUpdate, 4 * 1024);
  return json(await setOwnerRecipe({ db, who }, body.recipe, body.ownersMayRun));
});
