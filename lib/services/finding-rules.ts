import "server-only";
import type { Db } from "@/lib/db/types";
import { recordAudit, type Who } from "@/lib/db/queries/audit";
import { getRules, getRulesView, saveRuleChanges, type RulesResponse } from "@/lib/db/queries/findings";
import { rewriteKeptRules } from "@/lib/db/queries/kept-findings";
import { isKept } from "@/lib/db/queries/rule-rows";
import type { RulesUpdateRequest } from "@/lib/findings/rules";

/** Applies an admin's changes (validated by `rulesUpdateRequest`) and returns the rules page's view of them. */
export async function updateRules(db: Db, req: RulesUpdateRequest, who: Who): Promise<RulesResponse> {
  await db.transaction(async (tx) => {
    // The new thresholds' findings commit with them.
    const kept = req.rules.filter((u) => u.params !== undefined && isKept(u.id)).map((u) => u.id);
    await saveRuleChanges(tx, req.rules);
    if (kept.length > 0) await rewriteKeptRules(tx, await getRules(tx), kept);
    await recordAudit(tx, {
      ...who,
      action: "rules.updated",
      target: req.rules.map((r) => r.id).join(","),
      details: { changes: req.rules },
    });
  });
  return getRulesView(db);
}
