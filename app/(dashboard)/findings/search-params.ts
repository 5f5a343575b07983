import type { RuleId, Severity } from "@/lib/db/queries/findings";
import { toGetter, type SearchParamsLike } from "@/lib/query/range";
import type { FindingsState } from "@/lib/query/findings";

// The findings page's URL state: ?severity=critical|warning|info&rule=<rule id>&workspace=<id>

export const SEVERITY_OPTIONS = ["critical", "warning", "info"] as const satisfies readonly Severity[];

const RULE_ID_RE = /^[a-z][a-z0-9-]{1,60}$/;

export function parseFindingsSearchParams(params: SearchParamsLike | Record<string, string | string[] | undefined>): FindingsState {
  const p = toGetter(params);
  const state: FindingsState = {};
  const severity = p.get("severity");
  if ((SEVERITY_OPTIONS as readonly string[]).includes(severity ?? "")) state.severity = severity as Severity;
  const rule = p.get("rule");
  if (rule && RULE_ID_RE.test(rule)) state.rule = rule as RuleId;
  const workspace = p.get("workspace")?.trim();
  if (workspace && workspace.length <= 100) state.workspace = workspace;
  return state;
}
