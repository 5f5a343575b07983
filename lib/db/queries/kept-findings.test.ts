import { sql } from "drizzle-orm";
import { beforeAll, expect, it } from "vitest";
import { describeEachDatabase, TEST_WHO } from "@/tests/support/db";
import { rowsOf, type Db } from "@/lib/db/types";
import { runMaintenance } from "@/lib/db/maintenance-task";
import { MIB } from "@/lib/findings/rule";
import { at, CLAUDE_LATEST, MiB, seedScenario, send, testNow, WS_A, WS_B, WS_C } from "@/tests/support/reports";
import { FLEET } from "../scope";
import { getRules, listFindings } from "./findings";
import { updateRules } from "@/lib/services/finding-rules";
import { currentKeptRules, rewriteStaleKeptRules } from "./kept-findings";
import { groupedRuleRows, KEPT_RULE_IDS } from "./rule-rows";

// The kept findings against the rules computed from the latest roots, the same SQL the pages would otherwise
// run: after ingest (newest and late reports), a root that goes away, a deleted workspace, retention, and an
// admin's new thresholds. And the pages read them: a kept row shows, a rule kept by other code is computed.

const asRows = (rows: Record<string, unknown>[]): string[] =>
  rows
    .map((r) =>
      JSON.stringify({
        rule: r.rule_id,
        ws: r.workspace_id,
        agent: r.agent_key,
        n: Number(r.n),
        total: Number(r.total),
        urgency: Number(r.urgency),
        members: r.members,
      }),
    )
    .sort();

/** Every kept rule's rows, as stored and as the rules compute them now. */
async function keptAndLive(db: Db) {
  const rules = await getRules(db);
  const cols = sql`rule_id, workspace_id, agent_key, n, total, urgency, members`;
  const kept = asRows(rowsOf(await db.execute(sql`select ${cols} from kept_findings`)));
  const live = asRows(rowsOf(await db.execute(sql`select ${cols} from (${groupedRuleRows(KEPT_RULE_IDS, rules)}) x`)));
  return { kept, live };
}

describeEachDatabase("kept findings", (t) => {
  const now = testNow();
  beforeAll(async () => {
    await seedScenario(t.current.db, now);
  });

  it("equal the rules computed from the latest roots after newest and late reports", async () => {
    const db = t.current.db;
    expect([...(await currentKeptRules(db, await getRules(db)))].sort()).toEqual([...KEPT_RULE_IDS].sort());
    const first = await keptAndLive(db);
    // The scenario's root findings: oversize (3), a large session, Claude's debug history, orphaned script data,
    // the agentapi leftover.
    expect(first.kept.length).toBeGreaterThanOrEqual(7);
    expect(first.kept).toEqual(first.live);

    // ws-b's newest report drops its leftover and grows Gemini; a late report of ws-a changes history only.
    await send(db, WS_B, at(now, 0, 12), [
      { key: "gemini:data", agent: "gemini", bytes: 700 * MiB },
      { key: "acme/tool", kind: "module", agent: "other", bytes: 1 * MiB },
    ]);
    await send(db, WS_A, at(now, 3), [{ key: "claude-code:data", agent: "claude-code", bytes: 5 * MiB }]);
    const after = await keptAndLive(db);
    expect(after.kept).toEqual(after.live);
    expect(after.kept.some((r) => r.includes("leftover:agentapi"))).toBe(false);
    expect(after.kept.some((r) => r.includes('"ws":"ws-a"') && r.includes('"rootKey":"claude-code:data"'))).toBe(true);

    // A workspace's first report, and a workspace whose reports stop naming its roots.
    await send(db, WS_C, at(now, 0, 11), [{ key: "codex:data", agent: "codex", bytes: 3000 * MiB }]);
    await send(db, WS_A, at(now, 0, 13), [CLAUDE_LATEST]);
    const more = await keptAndLive(db);
    expect(more.kept).toEqual(more.live);
    expect(more.kept.some((r) => r.includes('"ws":"ws-c"') && r.includes('"rootKey":"codex:data"'))).toBe(true);
    expect(more.kept.some((r) => r.includes("script-data:0001"))).toBe(false);
  });

  it("leave a deleted workspace out of the lists, and stay equal through retention", async () => {
    const db = t.current.db;
    const countsByRule = async () =>
      Object.fromEntries(
        (await listFindings(db, FLEET, { now })).counts!.byRule.map((r) => [r.ruleId, { n: r.count, g: r.rows }]),
      );
    const before = await countsByRule();
    const [ofC] = rowsOf<{ n: number; g: number }>(
      await db.execute(sql`select sum(n)::int as n, count(*)::int as g from kept_findings
        where workspace_id = 'ws-c' and rule_id = 'root-oversize'`),
    );
    expect(ofC.g).toBeGreaterThan(0);
    await db.execute(sql`update workspaces set deleted_at = ${now.toISOString()}::timestamptz where id = 'ws-c'`);
    const l = await listFindings(db, FLEET, { now, limit: 500 });
    expect(l.findings.some((f) => f.workspace.id === "ws-c")).toBe(false);
    // The counts leave its kept groups out too.
    expect((await countsByRule())["root-oversize"]).toEqual({
      n: before["root-oversize"].n - ofC.n,
      g: before["root-oversize"].g - ofC.g,
    });
    await runMaintenance(t.current, { now: new Date(now.getTime() + 40 * 86_400_000) });
    const r = await keptAndLive(db);
    expect(r.kept).toEqual(r.live);
  });

  it("are what the lists read, until another version's rule is computed live and its rows rewritten", async () => {
    const db = t.current.db;
    // A kept row that the rules would not find: the lists show it, since they read the kept rows.
    const member = { rootKey: "acme/tool", path: ".coder-modules/acme/tool", value: 900 * MIB, threshold: 50 * MIB };
    await db.execute(sql`insert into kept_findings (rule_id, workspace_id, agent_key, agent, n, total, urgency, members)
      values ('root-oversize', 'ws-b', 'other', 'other', 1, ${900 * MIB}, 18, ${JSON.stringify([member])}::jsonb)`);
    const shown = (await listFindings(db, FLEET, { now, rule: "root-oversize", workspace: "ws-b" })).findings;
    expect(shown.map((f) => f.rootKey).sort()).toEqual(["acme/tool", "gemini:data"]);

    // Rows written with another signature (an older version of the rule) are not read: the rule is computed.
    await db.execute(sql`update kept_finding_rules set signature = 'another version' where rule_id = 'root-oversize'`);
    expect((await currentKeptRules(db, await getRules(db))).has("root-oversize")).toBe(false);
    const live = (await listFindings(db, FLEET, { now, rule: "root-oversize", workspace: "ws-b" })).findings;
    expect(live.map((f) => f.rootKey)).toEqual(["gemini:data"]);

    // Start rewrites it: the stray row is gone and the rule is read from its kept rows again.
    expect(await rewriteStaleKeptRules(db, await getRules(db))).toEqual(["root-oversize"]);
    expect((await currentKeptRules(db, await getRules(db))).has("root-oversize")).toBe(true);
    const r = await keptAndLive(db);
    expect(r.kept).toEqual(r.live);
  });

  it("follow an admin's new thresholds in the same transaction", async () => {
    const db = t.current.db;
    const before = (await keptAndLive(db)).kept.filter((r) => r.includes('"rule":"root-oversize"')).length;
    await updateRules(db, { rules: [{ id: "root-oversize", params: { defaultBytes: 0, byAgent: {} } }] }, TEST_WHO);
    expect((await currentKeptRules(db, await getRules(db))).has("root-oversize")).toBe(true);
    const r = await keptAndLive(db);
    expect(r.kept).toEqual(r.live);
    expect(r.kept.filter((x) => x.includes('"rule":"root-oversize"')).length).toBeGreaterThan(before);
  });
});
