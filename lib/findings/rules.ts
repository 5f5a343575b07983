// The findings rules: ids, default thresholds (from DESIGN.md), the zod schema an admin's change must pass,
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
  "volume-filling",
  "orphaned-script-data",
  "agentapi-leftover",
  "silent-workspace",
  "claude-debug-history",
] as const;
export type RuleId = (typeof RULE_IDS)[number];

/** What a finding's measured value and threshold are in. */
export type FindingUnit = "bytes" | "bytesPerDay" | "days" | "hours";

const bytes = z.number().int().nonnegative().max(2 ** 60);
const positiveDays = z.number().positive().max(3650);

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
  /** A volume forecast to fill within this many days. */
  "volume-filling": z.object({ days: positiveDays }).strict(),
  /** An orphaned coder-script-data folder larger than this (0: any). */
  "orphaned-script-data": z.object({ minBytes: bytes }).strict(),
  /** AgentAPI leftovers (root kind "leftover") larger than this (0: any). */
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
  "volume-filling": {
    id: "volume-filling",
    title: "Volume fills soon",
    description: "A workspace's home volume is forecast to fill within 7 days at its current growth.",
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

/**
 * The rules in effect: defaults with stored overrides applied. An override that no longer validates (a rule's
 * params changed shape between versions) is ignored, so a bad row never breaks the findings page.
 */
export function mergeRules(overrides: readonly RuleOverride[]): RuleSet {
  const out = structuredClone(DEFAULT_RULES) as RuleSet;
  for (const o of overrides) {
    if (!(RULE_IDS as readonly string[]).includes(o.id)) continue;
    const id = o.id as RuleId;
    const rule = out[id] as Rule;
    if (o.enabled !== null) rule.enabled = o.enabled;
    if (o.severity !== null && (SEVERITIES as readonly string[]).includes(o.severity)) rule.severity = o.severity as Severity;
    if (o.params !== null && o.params !== undefined) {
      const parsed = ruleParamsSchemas[id].safeParse(o.params);
      if (parsed.success) rule.params = parsed.data as never;
    }
  }
  return out;
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
  const ratio = (f: Finding) =>
    f.unit === "days" ? (f.threshold + 1) / (f.value + 1) : f.threshold > 0 ? f.value / f.threshold : f.value;
  return (
    compareSeverity(a.severity, b.severity) ||
    ratio(b) - ratio(a) ||
    a.workspace.id.localeCompare(b.workspace.id) ||
    (a.rootKey ?? "").localeCompare(b.rootKey ?? "")
  );
}

function fmtBytes(n: number): string {
  const units = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"];
  let i = 0;
  let v = n;
  while (Math.abs(v) >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${i === 0 ? v : v.toFixed(v >= 100 ? 0 : 1)} ${units[i]}`;
}

/** How to act on a root that is too large, per agent (DESIGN.md §3). */
export const AGENT_ACTIONS: Record<string, string> = {
  "claude-code":
    "Set cleanupPeriodDays in ~/.claude/settings.json (default 30) or run the Claude Code retention cleanup; old debug/ and file-history/ can go by age.",
  codex: "Codex has no retention setting: run the Codex rollout cleanup to delete sessions/YYYY/MM/DD rollouts older than 30 days.",
  gemini:
    'Enable general.sessionRetention in ~/.gemini/settings.json ({"enabled": true, "maxAge": "30d"}) or run the Gemini chat cleanup.',
  goose: "Goose has no retention: delete old sessions from inside Goose; never delete parts of sessions.db (-wal/-shm go with it).",
  opencode: "Run the OpenCode cleanup for log/ and tool-output/ by age; snapshot/ can be pruned from OpenCode itself.",
  copilot: "Run the Copilot CLI cleanup to delete whole ~/.copilot/session-state/<id>/ folders older than 30 days.",
  kiro: "Run the Kiro cleanup to delete old session files under ~/.kiro/sessions/cli/ (never data.sqlite3).",
  "amazon-q": "Run the Amazon Q cleanup to delete old session files (never the SQLite database).",
  cursor: "Run the Cursor CLI cleanup to delete whole ~/.cursor/chats/<hash>/<chat-id>/ folders by age.",
};
const GENERIC_ACTION = "Look at the root's largest entries and add a retention policy for it, or delete what is no longer needed.";

/** Fills in the message and action of a finding from its measurements. */
export function describeFinding(f: Omit<Finding, "message" | "action">): Finding {
  const where = f.rootKey ? `${f.rootKey}${f.path ? ` (${f.path})` : ""}` : "the workspace";
  const text: Record<RuleId, () => [string, string]> = {
    "root-oversize": () => [
      `${where} holds ${fmtBytes(f.value)}, over the ${fmtBytes(f.threshold)} expected for ${f.agent ?? "this agent"}.`,
      AGENT_ACTIONS[f.agent ?? ""] ?? GENERIC_ACTION,
    ],
    "large-session": () => [
      `A single session in ${f.rootKey} is ${fmtBytes(f.value)} (limit ${fmtBytes(f.threshold)}): ${f.path}.`,
      f.agent === "claude-code"
        ? "Finish or archive that conversation; Claude Code's cleanupPeriodDays removes it once it is old enough, or delete the session (.jsonl and its folder) with the Claude cleanup."
        : (AGENT_ACTIONS[f.agent ?? ""] ?? GENERIC_ACTION),
    ],
    "fast-growth": () => [
      `Used space grows by ${fmtBytes(f.value)} per day (limit ${fmtBytes(f.threshold)} per day).`,
      "Open the workspace's usage by root to see which root grows, then apply that agent's retention policy.",
    ],
    "volume-filling": () => [
      f.value < 0.05
        ? `The home volume is full (alert when under ${f.threshold} days from full).`
        : f.value < 1
          ? `The home volume is forecast to fill in ${Math.max(1, Math.round(f.value * 24))} hours (alert under ${f.threshold} days).`
          : `The home volume is forecast to fill in ${f.value.toFixed(1)} days (alert under ${f.threshold} days).`,
      "Free space now (run the largest roots' cleanups) or grow the workspace's volume in its template before it fills: a full disk corrupts agent settings and auth.",
    ],
    "orphaned-script-data": () => [
      `Orphaned script data ${f.path ?? where} holds ${fmtBytes(f.value)}.`,
      "Delete the orphaned coder-script-data/<uuid>/ folder: each workspace start creates a new one and nothing reads the old ones.",
    ],
    "agentapi-leftover": () => [
      `AgentAPI leftovers in ${where} (${fmtBytes(f.value)}).`,
      "Delete agentapi-state.json and agentapi.pid from the module folder: current modules no longer use AgentAPI.",
    ],
    "silent-workspace": () => [
      `No report for ${f.value.toFixed(0)} hours (over ${f.threshold} hours).`,
      "Check whether the workspace is stopped or deleted; if it runs, check the reporter's coder_script logs and its token.",
    ],
    "claude-debug-history": () => [
      `Claude Code's debug/ and file-history/ hold ${fmtBytes(f.value)}, more than its sessions (${fmtBytes(f.threshold)}).`,
      "Delete debug/ and file-history/ entries older than 7 days with the Claude cleanup; lower cleanupPeriodDays in ~/.claude/settings.json.",
    ],
  };
  const [message, action] = text[f.ruleId]();
  return { ...f, message, action };
}
