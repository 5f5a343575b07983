import { z } from "zod";
import type { Db } from "../types";
import {
  RULE_IDS,
  SEVERITIES,
  type Finding,
  type Rule,
  type RuleId,
  type RulesUpdateRequest,
  type RuleSet,
  type Severity,
} from "@/lib/findings/rules";

export type { Finding, Rule, RuleId, RuleSet, Severity };

/** Query parameters of GET /api/v1/findings. */
export const findingsQuery = z.object({
  workspace: z.string().max(100).optional(),
  rule: z.enum(RULE_IDS).optional(),
  severity: z.enum(SEVERITIES).optional(),
  limit: z.coerce.number().int().min(1).max(5000).default(500),
});
export type FindingsParams = z.input<typeof findingsQuery> & { now?: Date };

export type FindingsList = {
  /** Most urgent first, at most `limit`. */
  findings: Finding[];
  /** All matching findings, beyond `limit` too. */
  total: number;
  truncated: boolean;
};

export type FindingsSummary = {
  total: number;
  bySeverity: Record<Severity, number>;
  byRule: { ruleId: RuleId; severity: Severity; count: number }[];
  /** The most urgent few. */
  top: Finding[];
};

export type RulesResponse = { rules: Rule[] };

export async function getRules(db: Db): Promise<RuleSet> {
  void db;
  throw new Error("not implemented yet");
}

/** Applies an admin's changes and returns the rules in effect. */
export async function updateRules(db: Db, req: RulesUpdateRequest): Promise<RuleSet> {
  void db;
  void req;
  throw new Error("not implemented yet");
}

export async function listFindings(db: Db, params: FindingsParams = {}): Promise<FindingsList> {
  void db;
  void params;
  throw new Error("not implemented yet");
}

export async function getFindingsSummary(db: Db, params: { now?: Date; top?: number } = {}): Promise<FindingsSummary> {
  void db;
  void params;
  throw new Error("not implemented yet");
}
