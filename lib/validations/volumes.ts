import { z } from "zod";
import { toGetter, type SearchParamsInput } from "./search-params";

// The volumes-at-risk page, its endpoint and its CSV: ?days=N (full, or forecast to fill within N days; absent:
// the volume-filling rule's days) and, for the endpoint, the page to continue after (`after`, opaque).

export const AT_RISK_DAYS = [7, 14, 30, 90] as const;
export const AT_RISK_PAGE = 25;

const days = z.coerce.number().int().min(1).max(3650);

/** The key of the row a page ends at, as the next request carries it (its JSON). */
export const encodeAtRiskCursor = (key: string[]) => JSON.stringify(key);

const cursor = z
  .string()
  .max(400)
  .transform((s, ctx) => {
    try {
      return z.array(z.string().max(120)).length(3).parse(JSON.parse(s));
    } catch {
      ctx.addIssue({ code: "custom", message: "is not a cursor this endpoint gave" });
      return z.NEVER;
    }
  });

/** GET /api/v1/volumes/at-risk?days=&after=&limit= */
export const atRiskQuery = z
  .object({
    days: days.optional(),
    after: cursor.optional(),
    limit: z.coerce.number().int().min(1).max(200).default(AT_RISK_PAGE),
  })
  .strict();

/** GET /api/v1/export/volumes.csv?days= : every volume at risk, the page's table whole. */
export const atRiskExportQuery = z.object({ days: days.optional() }).strict();

/** The page's ?days, forgivingly: a hand-edited value that is no count of days is the rule's. */
export function parseAtRiskSearchParams(input: SearchParamsInput): { days?: number } {
  const parsed = days.safeParse(toGetter(input).get("days") ?? undefined);
  return parsed.success ? { days: parsed.data } : {};
}
