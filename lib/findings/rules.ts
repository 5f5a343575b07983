// The findings rules: ids, default thresholds (each agent's typical storage needs), the zod schema an admin's change must pass,
// and the wording of each finding (message and what to do about it). Pure: the SQL lives in
// lib/db/queries/findings.ts.
import { z } from "zod";

export const MIB = 1024 ** 2;
export const GIB = 1024 ** 3;

export const SEVERITIES = ["critical", "warning", "info"] as const;
export type Severity = (typeof SEVERITIES)[number];

export const RULE_IDS = [
  "root-oversize",
  "large-session",
  "fast-growth",
  "volume-full",
  "inodes-full",
  "volume-filling",
  "orphaned-script-data",
  "agentapi-leftover",
  "silent-workspace",
  "claude-debug-history",
] as const;
export type RuleId = (typeof RULE_IDS)[number];

/** What a finding's measured value and threshold are in. */
export type FindingUnit = "bytes" | "bytesPerDay" | "days" | "hours" | "percent";

const bytes = z.number().int().nonnegative().max(2 ** 60);
const positiveDays = z.number().positive().max(3650);
const percent = z.number().int().min(1).max(100);

/** Each rule's tunable thresholds. */
export const ruleParamsSchemas = {
  /** A root larger than what its agent normally needs (per agent slug, else `defaultBytes`). */
  "root-oversize": z
    .object({ defaultBytes: bytes, byAgent: z.record(z.string().min(1).max(100), bytes) })
    .strict(),
  /** A single session (largest entry of type "session") above this size. */
  "large-session": z.object({ bytes }).strict(),
  /** A workspace whose used space grows faster than this (the workspace's fitted growth). */
  "fast-growth": z.object({ bytesPerDay: bytes }).strict(),
  /** A volume whose df Use% is at or above this: critical whatever its growth (a full disk no longer grows). */
  "volume-full": z.object({ usedPercent: percent }).strict(),
  /** A volume whose df -i IUse% is at or above this: no new file can be created once inodes run out. */
  "inodes-full": z.object({ usedPercent: percent }).strict(),
  /** A volume below the volume-full threshold forecast to fill within this many days. */
  "volume-filling": z.object({ days: positiveDays }).strict(),
  /** An orphaned coder-script-data folder larger than this (0: any). */
  "orphaned-script-data": z.object({ minBytes: bytes }).strict(),
  /** AgentAPI leftovers in a root (or, from reporters before 0.2, roots of kind "leftover") larger than this (0: any). */
  "agentapi-leftover": z.object({ minBytes: bytes }).strict(),
  /** A workspace whose newest report is older than this. */
  "silent-workspace": z.object({ hours: z.number().positive().max(24 * 3650) }).strict(),
  /** Claude Code's debug/ plus file-history/ larger than its sessions, once they pass `minBytes`. */
  "claude-debug-history": z.object({ minBytes: bytes }).strict(),
} satisfies Record<RuleId, z.ZodType>;

export type RuleParams = { [K in RuleId]: z.infer<(typeof ruleParamsSchemas)[K]> };

export type Rule<K extends RuleId = RuleId> = {
  id: K;
  title: string;
  description: string;
  enabled: boolean;
  severity: Severity;
  params: RuleParams[K];
};

export type RuleSet = { [K in RuleId]: Rule<K> };

export const DEFAULT_RULES: RuleSet = {
  "root-oversize": {
    id: "root-oversize",
    title: "Root over its expected size",
    description: "A storage root is larger than its agent normally needs (Claude Code 1 GiB, Gemini 400 MiB, others 50 MiB).",
    enabled: true,
    severity: "warning",
    params: { defaultBytes: 50 * MIB, byAgent: { "claude-code": 1 * GIB, gemini: 400 * MIB } },
  },
  "large-session": {
    id: "large-session",
    title: "Very large session",
    description: "A single session file or folder is larger than 200 MiB.",
    enabled: true,
    severity: "warning",
    params: { bytes: 200 * MIB },
  },
  "fast-growth": {
    id: "fast-growth",
    title: "Fast growth",
    description: "A workspace's used space grows faster than 500 MiB per day.",
    enabled: true,
    severity: "warning",
    params: { bytesPerDay: 500 * MIB },
  },
  "volume-full": {
    id: "volume-full",
    title: "Volume full",
    description: "A workspace's home volume is at or above 95% used, as df shows Use% (Coder's own volume alert is a percentage too).",
    enabled: true,
    severity: "critical",
    params: { usedPercent: 95 },
  },
  "inodes-full": {
    id: "inodes-full",
    title: "Inodes nearly exhausted",
    description: "A workspace's home volume has used 95% or more of its inodes (df -i): agents that write millions of small files fill a disk this way too.",
    enabled: true,
    severity: "critical",
    params: { usedPercent: 95 },
  },
  "volume-filling": {
    id: "volume-filling",
    title: "Volume fills soon",
    description: "A workspace's home volume, not yet full, is forecast to fill within 7 days at its current growth.",
    enabled: true,
    severity: "critical",
    params: { days: 7 },
  },
  "orphaned-script-data": {
    id: "orphaned-script-data",
    title: "Orphaned script data",
    description: "A coder-script-data/<uuid>/ folder from an earlier start that nothing uses any more.",
    enabled: true,
    severity: "info",
    params: { minBytes: 0 },
  },
  "agentapi-leftover": {
    id: "agentapi-leftover",
    title: "AgentAPI leftovers",
    description: "agentapi-state.json / agentapi.pid left in module folders after AgentAPI was dropped.",
    enabled: true,
    severity: "info",
    params: { minBytes: 0 },
  },
  "silent-workspace": {
    id: "silent-workspace",
    title: "Stopped reporting",
    description: "No report from the workspace for over 24 hours (stopped, deleted, or the reporter fails).",
    enabled: true,
    severity: "info",
    params: { hours: 24 },
  },
  "claude-debug-history": {
    id: "claude-debug-history",
    title: "Claude debug/file-history larger than sessions",
    description: "Claude Code's debug/ and file-history/ folders together are larger than its sessions.",
    enabled: true,
    severity: "warning",
    params: { minBytes: 50 * MIB },
  },
};

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
    if (o.severity !== null && (SEVERITIES as readonly string[]).includes(o.severity)) rule.severity = o.severity as Severity;
    if (o.params !== null && o.params !== undefined) {
      const parsed = ruleParamsSchemas[id].safeParse(o.params);
      if (parsed.success) rule.params = parsed.data as never;
      else ignored.push({ id, params: o.params, problem: parsed.error.issues.map((i) => `${i.path.join(".") || "(params)"}: ${i.message}`).join("; ") });
    }
  }
  return { rules, ignored };
}

export type WorkspaceRef = { id: string; name: string; owner: string };

export type Finding = {
  ruleId: RuleId;
  severity: Severity;
  workspace: WorkspaceRef;
  /** The root the finding is about; null for workspace-level findings. */
  rootKey: string | null;
  agent: string | null;
  /** For a session or folder finding: its path relative to the root. */
  path: string | null;
  /** What was measured, in `unit`. */
  value: number;
  threshold: number;
  unit: FindingUnit;
  message: string;
  /** A concrete next step. */
  action: string;
};

const SEVERITY_RANK: Record<Severity, number> = { critical: 0, warning: 1, info: 2 };
export const compareSeverity = (a: Severity, b: Severity) => SEVERITY_RANK[a] - SEVERITY_RANK[b];

/** Most urgent first: severity, then how far past its threshold (ratio), then workspace and root. */
export function compareFindings(a: Finding, b: Finding): number {
  // A full volume or inode table is past any forecast: it outranks every other finding of its severity.
  const ratio = (f: Finding) =>
    f.unit === "percent"
      ? Number.MAX_SAFE_INTEGER / 1000 + f.value
      : f.unit === "days"
        ? (f.threshold + 1) / (f.value + 1)
        : f.threshold > 0
          ? f.value / f.threshold
          : f.value;
  return (
    compareSeverity(a.severity, b.severity) ||
    ratio(b) - ratio(a) ||
    a.workspace.id.localeCompare(b.workspace.id) ||
    (a.rootKey ?? "").localeCompare(b.rootKey ?? "")
  );
}
