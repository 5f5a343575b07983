import { z } from "zod";

/** GET /api/v1/backup's query: `secrets=1` keeps the secrets (docs/backup.md says which). */
export const backupQuery = z.strictObject({
  secrets: z.enum(["0", "1"]).optional(),
});
