import { z } from "zod";

/** The Lost at restart CSV's filters: one template ("" for workspaces without one), or one workspace. */
export const restartExportQuery = z
  .object({ template: z.string().max(200).optional(), workspace: z.string().min(1).max(100).optional() })
  .strict();
export type RestartFilter = z.infer<typeof restartExportQuery>;
