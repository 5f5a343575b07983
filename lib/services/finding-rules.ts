import "server-only";
import type { Db } from "@/lib/db/types";
import type { Who } from "@/lib/db/queries/audit";
import { getRules, getRulesView, saveRuleChanges, type RulesResponse } from "@/lib/db/queries/findings";
import { rewriteKeptRules } from "@/lib/db/queries/kept-findings";
import { isKept } from "@/lib/db/queries/rule-rows";
import type { RulesUpdateRequest } from "@/lib/findings/rules";
import { withTransaction } from "./transaction";

/** Applies an admin's changes (validated by `rulesUpdateRequest`) and returns the rules page's view of them. */
export async function updateRules(db: Db, req: RulesUpdateRequest, who: Who): Promise<RulesResponse> {
  await withTransaction({ db, who }, async ({ tx, audit }) => {
    // The new thresholds' findings commit with them.
    const kept = req.rules.filter((u) => u.params !== undefined && isKept(u.id)).map((u) => u.id);
    await saveRuleChanges(tx, req.rules);
    if (kept.length > 0) await rewriteKeptRules(tx, await getRules(tx), kept);
    await audit({
      action: "rules.updated",
      target: req.rules.map((r) => r.id).join(","),
      details: { changes: req.rules },
    });
  });
  return getRulesView(db);
}
