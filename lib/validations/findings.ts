import { z } from "zod";
import { RULE_IDS, SEVERITIES } from "@/lib/findings/finding";
import { toGetter, type SearchParamsInput } from "./search-params";

// The findings list's parameters, read by GET /api/v1/findings (strictly: 422 on a bad value) and by the page
// and the browser from ?severity=&rule=&workspace= (forgivingly: a bad value is left out, the rest still apply).

export const SEVERITY_OPTIONS = SEVERITIES;

const filters = {
  // Blank means no filter, as a form with an empty field sends it.
  workspace: z
    .string()
    .trim()
    .max(100)
    .transform((v) => v || undefined),
  rule: z.enum(RULE_IDS),
  severity: z.enum(SEVERITIES),
};

export const findingsQuery = z.object({
  workspace: filters.workspace.optional(),
  rule: filters.rule.optional(),
  severity: filters.severity.optional(),
  limit: z.coerce.number().int().min(1).max(5000).default(500),
});

/** The filters a findings view is showing; absent keys filter nothing. */
export type FindingsState = { [K in keyof typeof filters]?: NonNullable<z.output<(typeof filters)[K]>> };

export function parseFindingsSearchParams(params: SearchParamsInput): FindingsState {
  const p = toGetter(params);
  const state: FindingsState = {};
  for (const key of Object.keys(filters) as (keyof typeof filters)[]) {
    const parsed = filters[key].safeParse(p.get(key));
    if (parsed.success && parsed.data !== undefined) Object.assign(state, { [key]: parsed.data });
  }
  return state;
}
