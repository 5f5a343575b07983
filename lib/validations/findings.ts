import { z } from "zod";
import { RULE_IDS, SEVERITIES } from "@/lib/findings/finding";
import { toGetter, type SearchParamsInput } from "./search-params";

// The findings list's parameters, read by GET /api/v1/findings and its CSV export (strictly: 422 on a bad value)
// and by the page and the browser from ?severity=&rule=&agent=&owner=&template=&workspace= (forgivingly: a bad
// value is left out, the rest still apply).

export const SEVERITY_OPTIONS = SEVERITIES;

// Blank means no filter, as a form with an empty field sends it.
const text = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .transform((v) => v || undefined);

const filters = {
  severity: z.enum(SEVERITIES),
  rule: z.enum(RULE_IDS),
  /** The finding's agent (a finding about a whole workspace, such as a full volume, has none). */
  agent: text(100),
  /** The workspace's owner and template, exactly. */
  owner: text(200),
  template: text(200),
  workspace: text(100),
};

/**
 * Where the next page starts: the last row's sort key (severity rank, urgency, workspace, rule, agent) as the
 * database wrote it, as a JSON array. Opaque to the client; checked here so a forged one is a 422.
 */
const cursor = z
  .string()
  .max(2000)
  .transform((s, ctx) => {
    try {
      const parsed = z
        .tuple([
          z.string().regex(/^\d$/),
          z.string().regex(/^-?(\d+(\.\d+)?(e[+-]?\d+)?|Infinity)$/),
          z.string().max(100),
          z.enum(RULE_IDS),
          z.string().max(100),
        ])
        .safeParse(JSON.parse(s));
      if (parsed.success) return parsed.data;
    } catch {
      // Not JSON: said below.
    }
    ctx.addIssue({ code: "custom", message: "is not a cursor from a previous page" });
    return z.NEVER;
  });

export type FindingsCursor = z.output<typeof cursor>;
export const encodeFindingsCursor = (key: readonly (string | null)[]) => JSON.stringify(key);

/** The filters alone: what the CSV export takes (every row, no paging). */
export const findingsFilterQuery = z.object({
  severity: filters.severity.optional(),
  rule: filters.rule.optional(),
  agent: filters.agent.optional(),
  owner: filters.owner.optional(),
  template: filters.template.optional(),
  workspace: filters.workspace.optional(),
});
export type FindingsFilters = z.output<typeof findingsFilterQuery>;

export const findingsQuery = findingsFilterQuery.extend({
  cursor: cursor.optional(),
  limit: z.coerce.number().int().min(1).max(500).default(50),
});

/** The filters a findings view is showing; absent keys filter nothing. */
export type FindingsState = { [K in keyof typeof filters]?: NonNullable<z.output<(typeof filters)[K]>> };

export const FINDINGS_FILTER_KEYS = Object.keys(filters) as (keyof typeof filters)[];

export function parseFindingsSearchParams(params: SearchParamsInput): FindingsState {
  const p = toGetter(params);
  const state: FindingsState = {};
  for (const key of FINDINGS_FILTER_KEYS) {
    const parsed = filters[key].safeParse(p.get(key));
    if (parsed.success && parsed.data !== undefined) Object.assign(state, { [key]: parsed.data });
  }
  return state;
}
