import { z } from "zod";
import { RECIPE_IDS } from "@/lib/catalog/recipes";
import { LIMITS } from "@/lib/report-format/constants";

// The owners' endpoints (My storage): a recipe on one of their workspaces, a Keep, and the admins' marks.

const workspaceId = z.string().min(1).max(100);
const recipe = z.enum(RECIPE_IDS);

/** POST /api/v1/me/cleanup/preview */
export const ownerPreviewRequest = z.object({ workspaceId, recipe }).strict();

/** POST /api/v1/me/cleanup/runs: the preview figure the owner saw. */
export const ownerRunRequestBody = z
  .object({ workspaceId, recipe, confirmBytes: z.number().int().nonnegative() })
  .strict();

/** POST /api/v1/me/keeps: a path relative to home; the days are checked by the service (1–14), to say so clearly. */
export const keepRequest = z
  .object({ workspaceId, path: z.string().trim().min(1).max(LIMITS.pathLength), days: z.number().int() })
  .strict();

/** PUT /api/v1/cleanup/owner-recipes */
export const ownerRecipeUpdate = z.object({ recipe, ownersMayRun: z.boolean() }).strict();
