// The one order of the findings lists, most urgent first: severity, then the urgency each rule's SQL computes
// (FindingRule.urgency; a group's is its most urgent finding's), then workspace, rule and agent, which make
// each row's key unique. The page, the overview's top findings and the CSV export all read by GROUP_ORDER, so
// their first N agree, and the page continues by key after the last row shown (keyset, never OFFSET).
import { sql } from "drizzle-orm";
import type { KeyPart } from "../keyset";
import { SEVERITIES, type Severity } from "@/lib/findings/finding";

/** A severity's place in the order (critical first), as the SQL sorts it. */
export const severityRank = (s: Severity) => SEVERITIES.indexOf(s);

/**
 * The order over the grouped rows (alias g: sev, urgency, workspace_id, rule_id, agent_key). Names compare byte
 * by byte (collation "C") whatever the database's collation, so both databases page alike.
 */
export const GROUP_ORDER: KeyPart[] = [
  { expr: sql`g.sev`, type: "int4" },
  { expr: sql`g.urgency`, type: "float8", dir: "desc" },
  { expr: sql`g.workspace_id collate "C"`, type: "text" },
  { expr: sql`g.rule_id collate "C"`, type: "text" },
  { expr: sql`g.agent_key collate "C"`, type: "text" },
];
