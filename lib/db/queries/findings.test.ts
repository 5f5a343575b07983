import { sql } from "drizzle-orm";
import { beforeAll, expect, it, vi } from "vitest";
import { describeEachDatabase, TEST_WHO } from "@/tests/support/db";
import { rowsOf } from "@/lib/db/types";
import { GIB, MIB } from "@/lib/findings/rule";
import { DEFAULT_RULES } from "@/lib/findings/rules";
import { findingsQuery, type FindingsCursor } from "@/lib/validations/findings";
import { getFindingsSummary, getRules, getRulesView, listFindings } from "./findings";
import { updateRules } from "@/lib/services/finding-rules";
import { REPORTER_ROOT_KEY, REPORTER_RUNTIME_ALLOWANCE } from "@/lib/findings/rules/root-oversize";
import { enroll, seedScenario, send, testNow } from "@/tests/support/reports";
import { FLEET } from "@/lib/db/scope";

describeEachDatabase("findings", (t) => {
  const now = testNow();
  beforeAll(async () => {
    await seedScenario(t.current.db, now);
  });
  const keys = (l: { findings: { ruleId: string; workspace: { id: string }; rootKey: string | null }[] }) =>
    l.findings.map((f) => `${f.ruleId} ${f.workspace.id} ${f.rootKey ?? "-"}`).sort();

  it("fires each default rule on the seeded fleet", async () => {
    const l = await listFindings(t.current.db, FLEET, { now });
    expect(keys(l)).toEqual([
      "agentapi-leftover ws-b leftover:agentapi",
      "claude-debug-history ws-a claude-code:data",
      "fast-growth ws-a -",
      "large-session ws-a claude-code:data",
      "orphaned-script-data ws-a script-data:0001",
      "root-oversize ws-a claude-code:data",
      "root-oversize ws-b gemini:data",
      "root-oversize ws-d goose:data",
      "silent-workspace ws-d -",
      "volume-filling ws-a -",
    ]);
    expect(l).toMatchObject({ nextCursor: null, counts: { total: 10, rows: 10 } });
    expect(l.findings[0].severity).toBe("critical");
    const oversize = l.findings.find((f) => f.ruleId === "root-oversize" && f.workspace.id === "ws-a")!;
    expect(oversize).toMatchObject({ value: 1536 * MIB, threshold: GIB, unit: "bytes", agent: "claude-code" });
    expect(oversize.action).toContain("cleanupPeriodDays");
    const session = l.findings.find((f) => f.ruleId === "large-session")!;
    expect(session).toMatchObject({ path: "projects/app/big.jsonl", value: 300 * MIB, threshold: 200 * MIB });
    const debug = l.findings.find((f) => f.ruleId === "claude-debug-history")!;
    expect(debug).toMatchObject({ value: 900 * MIB, threshold: 600 * MIB });
    const silent = l.findings.find((f) => f.ruleId === "silent-workspace")!;
    expect(silent).toMatchObject({ value: 19 * 24 + 2, threshold: 24, unit: "hours" });
  });

  it("filters by workspace, rule, severity, agent, owner and template, and pages by key", async () => {
    const db = t.current.db;
    expect(keys(await listFindings(db, FLEET, { now, workspace: "ws-b" }))).toEqual([
      "agentapi-leftover ws-b leftover:agentapi",
      "root-oversize ws-b gemini:data",
    ]);
    expect((await listFindings(db, FLEET, { now, rule: "root-oversize" })).counts!.total).toBe(3);
    const info = await listFindings(db, FLEET, { now, severity: "info" });
    expect(info.findings.map((f) => f.ruleId).sort()).toEqual([
      "agentapi-leftover",
      "orphaned-script-data",
      "silent-workspace",
    ]);
    // The counts leave the severity out: they say what each severity would list.
    expect(info.counts).toMatchObject({ total: 10, bySeverity: { critical: 1, warning: 6, info: 3 } });
    const gemini = await listFindings(db, FLEET, { now, agent: "gemini" });
    expect(keys(gemini)).toEqual(["root-oversize ws-b gemini:data"]);
    // counted as listed: by agent alone (no join to the workspaces), and by owner (joined)
    expect(gemini.counts).toMatchObject({ total: 1, rows: 1 });
    const dave = await listFindings(db, FLEET, { now, owner: "dave" });
    expect(dave.counts).toMatchObject({ total: 2, rows: 2 });
    expect(keys(dave)).toEqual(["root-oversize ws-d goose:data", "silent-workspace ws-d -"]);
    expect(keys(await listFindings(db, FLEET, { now, template: "minimal", rule: "root-oversize" }))).toEqual([
      "root-oversize ws-b gemini:data",
    ]);
    expect((await listFindings(db, FLEET, { now, owner: "nobody" })).counts).toMatchObject({ total: 0, rows: 0 });

    // Two at a time, each page after the last row of the one before, until the last says there is none.
    const all = (await listFindings(db, FLEET, { now, limit: 500 })).findings;
    const paged: typeof all = [];
    let cursor: FindingsCursor | undefined;
    for (let i = 0; i < 10; i++) {
      const page = await listFindings(db, FLEET, { now, limit: 2, cursor });
      expect(page.counts === null).toBe(cursor !== undefined);
      paged.push(...page.findings);
      if (!page.nextCursor) break;
      expect(page.findings).toHaveLength(2);
      cursor = findingsQuery.parse({ cursor: page.nextCursor }).cursor;
    }
    expect(paged).toEqual(all);
    expect(all).toHaveLength(10);

    const s = await getFindingsSummary(db, { now, top: 3 });
    expect(s.byRule.find((r) => r.ruleId === "root-oversize")).toMatchObject({
      ruleId: "root-oversize",
      severity: "warning",
      count: 3,
      rows: 3,
    });
    expect(s.top).toEqual(all.slice(0, 3));
  });

  it("applies thresholds strictly around their values and stores admins' changes", async () => {
    const db = t.current.db;
    expect(await getRules(db)).toEqual(DEFAULT_RULES);
    const oversize = (b: number) => ({
      id: "root-oversize" as const,
      params: { defaultBytes: 50 * MIB, byAgent: { "claude-code": b, gemini: 400 * MIB } },
    });
    await updateRules(db, { rules: [oversize(1536 * MIB)] }, TEST_WHO);
    expect(keys(await listFindings(db, FLEET, { now, rule: "root-oversize" }))).toEqual([
      "root-oversize ws-b gemini:data",
      "root-oversize ws-d goose:data",
    ]);
    await updateRules(db, { rules: [oversize(1536 * MIB - 1)] }, TEST_WHO);
    expect((await listFindings(db, FLEET, { now, rule: "root-oversize" })).counts!.total).toBe(3);
    await updateRules(
      db,
      {
        rules: [
          { id: "large-session", params: { bytes: 300 * MIB } },
          { id: "volume-filling", severity: "warning" },
        ],
      },
      TEST_WHO,
    );
    expect((await listFindings(db, FLEET, { now, rule: "large-session" })).counts!.total).toBe(0);
    expect((await listFindings(db, FLEET, { now, rule: "volume-filling" })).findings[0].severity).toBe("warning");
    await updateRules(db, { rules: [{ id: "silent-workspace", params: { hours: 19 * 24 + 2 } }] }, TEST_WHO);
    expect((await listFindings(db, FLEET, { now, rule: "silent-workspace" })).counts!.total).toBe(0);
    await updateRules(
      db,
      {
        rules: [
          { id: "silent-workspace", params: { hours: 19 * 24 + 1 } },
          { id: "fast-growth", enabled: false },
        ],
      },
      TEST_WHO,
    );
    expect((await listFindings(db, FLEET, { now, rule: "silent-workspace" })).counts!.total).toBe(1);
    expect((await listFindings(db, FLEET, { now, rule: "fast-growth" })).counts!.total).toBe(0);
    const rules = await getRules(db);
    expect(rules["volume-filling"]).toMatchObject({ severity: "warning", params: { days: 7 } });
    expect(rules["fast-growth"].enabled).toBe(false);
  });

  it("says so, once in the log and on the rules page, when stored thresholds no longer validate", async () => {
    const db = t.current.db;
    // As an earlier version could have stored them: a field this version does not know (one value per database:
    // each is logged once per process).
    const stale = { minMiB: 5, on: t.current.kind };
    await db.execute(sql`insert into finding_rules (id, params) values ('orphaned-script-data', ${JSON.stringify(stale)}::jsonb)
      on conflict (id) do update set params = excluded.params`);
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    try {
      const view = await getRulesView(db);
      await getRules(db);
      expect(view.ignored).toEqual([{ id: "orphaned-script-data", params: stale, problem: expect.any(String) }]);
      expect(view.rules.find((r) => r.id === "orphaned-script-data")?.params).toEqual(
        DEFAULT_RULES["orphaned-script-data"].params,
      );
      expect(warn.mock.calls.filter((c) => String(c[0]).includes("orphaned-script-data"))).toHaveLength(1);
    } finally {
      warn.mockRestore();
    }
    // Saving the rule replaces them.
    const saved = await updateRules(db, { rules: [{ id: "orphaned-script-data", params: { minBytes: 0 } }] }, TEST_WHO);
    expect(saved.ignored).toEqual([]);
  });

  it("leaves a volume that volume-full flags to it, and forecasts it again when volume-full is off", async () => {
    const db = t.current.db;
    const [{ pct }] = rowsOf<{ pct: number }>(
      await db.execute(sql`select volume_used_pct::float8 as pct from workspaces where id = 'ws-a'`),
    );
    const filling = async () =>
      keys(await listFindings(db, FLEET, { now, workspace: "ws-a" })).filter((k) => k.startsWith("volume-"));
    expect(await filling()).toEqual(["volume-filling ws-a -"]);
    await updateRules(db, { rules: [{ id: "volume-full", params: { usedPercent: Math.floor(pct) } }] }, TEST_WHO);
    expect(await filling()).toEqual(["volume-full ws-a -"]);
    await updateRules(db, { rules: [{ id: "volume-full", enabled: false }] }, TEST_WHO);
    expect(await filling()).toEqual(["volume-filling ws-a -"]);
    await updateRules(db, { rules: [{ id: "volume-full", enabled: true, params: { usedPercent: 95 } }] }, TEST_WHO);
  });

  it("expects the reporter's own module folder to hold the Node.js runtime it keeps, and flags it only past that", async () => {
    const db = t.current.db;
    const runtimeOnly = { id: "ws-runtime", owner: "erin" };
    const bloated = { id: "ws-bloated", owner: "erin" };
    const reporterRoot = (bytes: number) => [
      { key: REPORTER_ROOT_KEY, agent: "other", kind: "module" as const, bytes },
    ];
    for (const ws of [runtimeOnly, bloated]) await enroll(db, ws);
    await send(db, runtimeOnly, now.toISOString(), reporterRoot(110 * MIB));
    await send(db, bloated, now.toISOString(), reporterRoot(50 * MIB + REPORTER_RUNTIME_ALLOWANCE + MIB));
    const found = await listFindings(db, FLEET, { now, rule: "root-oversize", owner: "erin" });
    expect(found.findings.map((f) => [f.workspace.id, f.threshold])).toEqual([
      ["ws-bloated", 50 * MIB + REPORTER_RUNTIME_ALLOWANCE],
    ]);
  });

  it("groups one rule's findings by template, with their workspaces and bytes, and the rules' bytes", async () => {
    const db = t.current.db;
    const oversize = await listFindings(db, FLEET, { now, rule: "root-oversize" });
    const bytesOf = (template: string) =>
      oversize.findings
        .filter((f) => ["ws-a", "ws-d"].includes(f.workspace.id) === (template === "ai-dev"))
        .reduce((s, f) => s + f.value, 0);
    // (Earlier tests add workspaces without a template: one more row, template null.)
    expect(oversize.byTemplate).toContainEqual({
      template: "ai-dev",
      count: 2,
      rows: 2,
      workspaces: 2,
      bytes: bytesOf("ai-dev"),
    });
    expect(oversize.byTemplate!.reduce((s, r) => s + r.bytes!, 0)).toBe(
      oversize.findings.reduce((s, f) => s + f.value, 0),
    );
    const all = await listFindings(db, FLEET, { now });
    expect(all.byTemplate).toBeNull();
    const byRule = new Map(all.counts!.byRule.map((r) => [r.ruleId, r.bytes]));
    expect(byRule.get("root-oversize")).toBe(oversize.findings.reduce((s, f) => s + f.value, 0));
    expect(byRule.get("silent-workspace")).toBeNull();
    // A template picked, its rows are the workspaces': no grouping above them.
    expect((await listFindings(db, FLEET, { now, rule: "root-oversize", template: "ai-dev" })).byTemplate).toBeNull();
    const silent = await listFindings(db, FLEET, { now, rule: "silent-workspace" });
    expect(silent.byTemplate).toEqual([{ template: "ai-dev", count: 1, rows: 1, workspaces: 1, bytes: null }]);
  });
});
