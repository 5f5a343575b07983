// What a finding is: the rules' ids, severities and units, and the finding's shape. No dependencies, so the
// browser's parameter schemas (lib/validations/findings.ts) can import it without the rules' SQL.

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
  "dormant-storage",
  "unused-storage",
  "auto-deletion",
  "agent-retention",
  "growing-file",
  "home-not-persistent",
  "agent-sessions-lost",
  "agent-data-lost",
  "script-data-in-use",
  "below-agent-minimum",
  "agentapi-state",
] as const;
export type RuleId = (typeof RULE_IDS)[number];

/** What a finding's measured value and threshold are in. */
export type FindingUnit = "bytes" | "bytesPerDay" | "days" | "hours" | "percent";

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

/** A finding before its wording. */
export type MeasuredFinding = Omit<Finding, "message" | "action">;

const SEVERITY_RANK: Record<Severity, number> = { critical: 0, warning: 1, info: 2 };
export const compareSeverity = (a: Severity, b: Severity) => SEVERITY_RANK[a] - SEVERITY_RANK[b];

/** One finding of a group, as measured: where it is and its value (in the group's unit). */
export type FindingMember = { rootKey: string | null; path: string | null; value: number };

/**
 * A row of the findings lists: the findings of one rule, one workspace and one agent, which share a severity
 * and a next step (eight orphaned script-data folders of a workspace are one row, not eight). A row of one
 * finding is that finding; a row of several says how many and, for sizes, their total in `value`.
 */
export type FindingGroup = Finding & {
  /** How many findings the row stands for. */
  count: number;
  /** The most urgent of them first, at most GROUP_MEMBERS_SHOWN. */
  members: FindingMember[];
};

/** How many of a group's findings a row lists. */
export const GROUP_MEMBERS_SHOWN = 20;
