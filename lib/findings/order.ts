// The one order of findings, most urgent first: severity, then the urgency each rule's SQL computes
// (FindingRule.urgency), then workspace, root and path. The page's query, the summary's and the CSV export's
// each sort by FINDING_ORDER within a rule and by compareFindings across rules, so their first N agree.
import { sql } from "drizzle-orm";
import type { KeyPart } from "@/lib/db/keyset";
import { compareSeverity, type Finding } from "./finding";

/** A finding with the urgency its rule's SQL gave it. */
export type RankedFinding = { finding: Finding; urgency: number };

/**
 * The order within one rule, over its rows (alias f, with their `urgency`). Names compare byte by byte
 * (collation "C") as compareFindings compares them, whatever the database's collation.
 */
export const FINDING_ORDER: KeyPart[] = [
  { expr: sql`f.urgency`, type: "float8", dir: "desc" },
  { expr: sql`f.workspace_id collate "C"`, type: "text" },
  { expr: sql`coalesce(f.root_key, '') collate "C"`, type: "text" },
  { expr: sql`coalesce(f.path, '') collate "C"`, type: "text" },
];

const byCodeUnit = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The order across rules: FINDING_ORDER after severity. */
export function compareFindings(a: RankedFinding, b: RankedFinding): number {
  return (
    compareSeverity(a.finding.severity, b.finding.severity) ||
    b.urgency - a.urgency ||
    byCodeUnit(a.finding.workspace.id, b.finding.workspace.id) ||
    byCodeUnit(a.finding.rootKey ?? "", b.finding.rootKey ?? "") ||
    byCodeUnit(a.finding.path ?? "", b.finding.path ?? "")
  );
}
