import "server-only";
import { z } from "zod";
import { formatBytes } from "@/lib/format/bytes";
import {
  RULE_IDS,
  SEVERITIES,
  type Finding,
  type FindingGroup,
  type FindingMember,
  type MeasuredFinding,
  type RuleId,
  type Severity,
} from "../finding";
import type { FindingRule, ThresholdField } from "../rule";
import { agentapiLeftover } from "./agentapi-leftover";
import { autoDeletion } from "./auto-deletion";
import { agentRetention } from "./agent-retention";
import { restartRules } from "./restart";
import { claudeDebugHistory } from "./claude-debug-history";
import { dormantStorage } from "./dormant-storage";
import { fastGrowth } from "./fast-growth";
import { growingFile } from "./growing-file";
import { inodesFull } from "./inodes-full";
import { largeSession } from "./large-session";
import { orphanedScriptData } from "./orphaned-script-data";
import { rootOversize } from "./root-oversize";
import { silentWorkspace } from "./silent-workspace";
import { unusedStorage } from "./unused-storage";
import { volumeFilling } from "./volume-filling";
import { volumeFull } from "./volume-full";

// The findings rules, each one object in its own file (parameters' schema, defaults, SQL, wording, urgency,
// scope), and the rules in effect: defaults with an admin's stored overrides applied.

/** Every rule, by id. */
export const RULES = {
  "root-oversize": rootOversize,
  "large-session": largeSession,
  "fast-growth": fastGrowth,
  "volume-full": volumeFull,
  "inodes-full": inodesFull,
  "volume-filling": volumeFilling,
  "orphaned-script-data": orphanedScriptData,
  "agentapi-leftover": agentapiLeftover,
  "silent-workspace": silentWorkspace,
  "claude-debug-history": claudeDebugHistory,
  "dormant-storage": dormantStorage,
  "unused-storage": unusedStorage,
  "auto-deletion": autoDeletion,
  "agent-retention": agentRetention,
  "growing-file": growingFile,
  ...restartRules,
} satisfies { [K in RuleId]: FindingRule<K> };

export type RuleParams = { [K in RuleId]: z.infer<(typeof RULES)[K]["params"]> };

/** A rule in effect, as the rules page and API show it. */
export type Rule<K extends RuleId = RuleId> = {
  id: K;
  title: string;
  description: string;
  enabled: boolean;
  severity: Severity;
  params: RuleParams[K];
  /** Each threshold's label and unit (keys of `params`). */
  fields: Record<string, ThresholdField>;
};

export type RuleSet = { [K in RuleId]: Rule<K> };

/**
 * The silent-workspace rule's hours: what silent means wherever it is shown (lib/findings/silence.ts), whether or
 * not the rule is enabled (which only decides its finding).
 */
export const silentHours = (rules: RuleSet) => rules["silent-workspace"].params.hours;

/** Each rule's parameters' schema. */
export const ruleParamsSchemas = Object.fromEntries(RULE_IDS.map((id) => [id, RULES[id].params])) as {
  [K in RuleId]: (typeof RULES)[K]["params"];
};

export const DEFAULT_RULES = Object.fromEntries(
  RULE_IDS.map((id) => {
    const { title, description, enabled, severity, defaults, fields } = RULES[id];
    return [id, { id, title, description, enabled, severity, params: defaults, fields }];
  }),
) as RuleSet;

/** Fills in the message and action of a finding from its measurements, in its rule's words. */
export function describeFinding(f: MeasuredFinding): Finding {
  return { ...f, ...RULES[f.ruleId].describe(f) };
}

/**
 * The row of `count` findings of one rule, workspace and agent: `first` (the most urgent, measured) and the
 * members listed. One finding is itself; several are counted, and sizes summed ("8 orphaned script-data
 * folders, 62 MiB in all"), with the first one's next step (the same rule and agent: the same step).
 */
export function describeGroup(
  first: MeasuredFinding,
  count: number,
  total: number,
  members: FindingMember[],
): FindingGroup {
  const one = describeFinding(first);
  if (count <= 1) return { ...one, count: 1, members };
  const rule = RULES[first.ruleId] as FindingRule;
  const items = rule.items ? rule.items(first) : `${rule.title.toLowerCase()} findings`;
  const sameRoot = members.every((m) => m.rootKey === first.rootKey) && members.length === count;
  const bytes = first.unit === "bytes";
  return {
    ...one,
    rootKey: sameRoot ? first.rootKey : null,
    path: null,
    value: bytes ? total : first.value,
    message: `${count.toLocaleString("en-US")} ${items}${bytes ? `, ${formatBytes(total)} in all` : ""}.`,
    count,
    members,
  };
}

/** An admin's change to one rule: any of enabled, severity, params (params replace the rule's params whole). */
export const ruleUpdate = z.discriminatedUnion(
  "id",
  RULE_IDS.map((id) =>
    z
      .object({
        id: z.literal(id),
        enabled: z.boolean().optional(),
        severity: z.enum(SEVERITIES).optional(),
        params: ruleParamsSchemas[id].optional(),
      })
      .strict(),
  ) as unknown as [z.ZodObject<{ id: z.ZodLiteral<RuleId> }>, ...z.ZodObject<{ id: z.ZodLiteral<RuleId> }>[]],
);
export const rulesUpdateRequest = z.object({ rules: z.array(ruleUpdate).min(1).max(RULE_IDS.length) }).strict();
export type RuleUpdate = { id: RuleId; enabled?: boolean; severity?: Severity; params?: RuleParams[RuleId] };
export type RulesUpdateRequest = { rules: RuleUpdate[] };

/** A stored override of one rule, as kept in the finding_rules table. */
export type RuleOverride = { id: string; enabled: boolean | null; severity: string | null; params: unknown };

/** A stored rule's thresholds that no longer validate, and why: the rule runs with its default thresholds. */
export type IgnoredOverride = { id: RuleId; params: unknown; problem: string };

/**
 * The rules in effect: defaults with stored overrides applied. Stored thresholds that no longer validate (a
 * rule's params changed shape between versions) are not applied, so a bad row never breaks the findings page;
 * they are returned in `ignored`, for the log and the rules page to say so.
 */
export function mergeRules(overrides: readonly RuleOverride[]): { rules: RuleSet; ignored: IgnoredOverride[] } {
  const rules = structuredClone(DEFAULT_RULES) as RuleSet;
  const ignored: IgnoredOverride[] = [];
  for (const o of overrides) {
    if (!(RULE_IDS as readonly string[]).includes(o.id)) continue;
    const id = o.id as RuleId;
    const rule = rules[id] as Rule;
    if (o.enabled !== null) rule.enabled = o.enabled;
    if (o.severity !== null && (SEVERITIES as readonly string[]).includes(o.severity))
      rule.severity = o.severity as Severity;
    if (o.params !== null && o.params !== undefined) {
      const parsed = ruleParamsSchemas[id].safeParse(o.params);
      if (parsed.success) rule.params = parsed.data as never;
      else
        ignored.push({
          id,
          params: o.params,
          problem: parsed.error.issues.map((i) => `${i.path.join(".") || "(params)"}: ${i.message}`).join("; "),
        });
    }
  }
  return { rules, ignored };
}
