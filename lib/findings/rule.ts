// The shape of one findings rule: everything about it in one object (lib/findings/rules/<id>.ts), collected
// by lib/findings/rules/index.ts.
import { sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { FindingUnit, MeasuredFinding, RuleId, Severity } from "./finding";

export const MIB = 1024 ** 2;
export const GIB = 1024 ** 3;

/** Parameter schemas the rules share. */
export const bytes = z
  .number()
  .int()
  .nonnegative()
  .max(2 ** 60);
export const percent = z.number().int().min(1).max(100);

/** What a rule's SQL is given besides its own parameters. */
export type RuleContext = {
  /**
   * The volume-full rule's Use% threshold when it is enabled, else null: volume-filling leaves the volumes it
   * flags to it (the one rule that defers to another; passed as a figure so that no rule reads the rule set).
   */
  fullAtPercent: number | null;
  /** The instant the findings are for, as a timestamptz. */
  now: SQL;
  /** `and <the rule's workspace column> = $id` when the findings are one workspace's, else empty. */
  ws: SQL;
};

export type FindingRule<K extends RuleId = RuleId, S extends z.ZodType = z.ZodType> = {
  id: K;
  title: string;
  description: string;
  /** Defaults; an admin's stored override replaces them. */
  enabled: boolean;
  severity: Severity;
  /** What an admin may set the thresholds to, and the thresholds by default. */
  params: S;
  defaults: z.infer<S>;
  unit: FindingUnit;
  /**
   * The table the rule reads: "workspace" (workspaces, alias w) or "root" (root_latest, alias r); a workspace
   * filter applies to its workspace column.
   */
  scope: "workspace" | "root";
  /**
   * How urgent a finding is, as SQL over its row's `value` and `threshold`, larger first. The one order of
   * findings: the page's top findings, the summary and the CSV export all sort by it (lib/db/queries/findings-order.ts).
   */
  urgency: SQL;
  /**
   * The rule's findings over the latest tables only: columns workspace_id, root_key, agent, path, value,
   * threshold (float8).
   */
  rows: (params: z.infer<S>, ctx: RuleContext) => SQL;
  /** The finding's message (what was measured) and action (a concrete next step). */
  describe: (f: MeasuredFinding) => { message: string; action: string };
  /**
   * What several findings of the rule in one workspace are, in the plural ("orphaned script-data folders"), for
   * the row that groups them; `f` is the most urgent of them. Rules of scope "workspace" find one per workspace.
   */
  items?: (f: MeasuredFinding) => string;
  /** Each threshold's label and unit, as the rules page shows them (keys of `params`). */
  fields: Record<string, ThresholdField>;
};

/** How the rules page shows one threshold: its label, and the unit it is edited in. */
export type ThresholdField = {
  label: string;
  unit: "MiB" | "MiB per day" | "%" | "hours" | "days";
  /** What the value means at its edge ("0: any size"). */
  hint?: string;
};

export const defineRule = <K extends RuleId, S extends z.ZodType>(rule: FindingRule<K, S>) => rule;

/** How far past its threshold: value ÷ threshold (the value itself when the threshold is 0). */
export const PAST_THRESHOLD = sql`case when threshold > 0 then value / threshold else value end`;
/** A full volume or inode table is past any forecast: it outranks the other findings of its severity. */
export const FULLNESS = sql`${Number.MAX_SAFE_INTEGER / 1000}::float8 + value`;
/** Days left before a threshold of days: the sooner, the more urgent. */
export const SOONNESS = sql`(threshold + 1) / (value + 1)`;

/** A threshold or measure as a float8 parameter. */
export const num = (n: number) => sql`${n}::float8`;
