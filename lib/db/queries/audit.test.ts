import { sql } from "drizzle-orm";
import { beforeAll, expect, it } from "vitest";
import { describeEachDatabase, TEST_WHO } from "@/tests/support/db";
import { enroll } from "@/tests/support/reports";
import { rowsOf } from "../types";
import { auditRows, listAudit, recordAudit } from "./audit";
import { createPolicy, deletePolicy } from "@/lib/services/cleanup-policies";

const POLICY = {
  recipe: "claude-code-debug" as const,
  params: { olderThanDays: 7 },
  scope: { all: true as const },
  schedule: "off" as const,
  enabled: true,
  dryRun: false,
  trashDays: 7,
  minAgeHours: 24,
  countStatusChanges: false,
  expiresDays: 7,
  runAtMinute: 180,
  runWeekday: 1,
};

describeEachDatabase("audit log", (t) => {
  beforeAll(async () => {
    // 25 events in one millisecond (same `at`): the id breaks the tie, so pages neither skip nor repeat.
    await t.current.db.execute(sql`insert into audit_log (at, actor_type, actor_label, action, target)
      select '2026-01-01T00:00:00Z', 'system', 'bulk', 'test.bulk', 'n' || g from generate_series(1, 25) g`);
    for (let i = 0; i < 5; i++)
      await recordAudit(t.current.db, {
        actor: { type: "system", label: "later" },
        action: "test.later",
        target: String(i),
      });
  });

  it("pages by key, newest first, without skipping or repeating rows that share a time", async () => {
    const seen: string[] = [];
    let cursor: { at: Date; id: number } | undefined;
    for (let pages = 0; pages < 10; pages++) {
      const page = await listAudit(t.current.db, { actor: "bulk" }, { cursor, limit: 7 });
      seen.push(...page.entries.map((e) => e.target!));
      if (!page.nextCursor) break;
      const last = page.entries.at(-1)!;
      cursor = { at: new Date(last.at), id: last.id };
    }
    expect(seen).toHaveLength(25);
    expect(new Set(seen).size).toBe(25);
    expect(seen[0]).toBe("n25");
  });

  it("filters by actor, action and time, and streams every row through auditRows", async () => {
    expect((await listAudit(t.current.db, { action: "test.later" }, { limit: 50 })).entries).toHaveLength(5);
    expect(
      (await listAudit(t.current.db, { to: new Date("2026-01-02") }, { limit: 50 })).entries.every(
        (e) => e.actorLabel !== "later",
      ),
    ).toBe(true);
    const all: string[] = [];
    for await (const row of auditRows(t.current.db, { actor: "bulk" }, 4)) all.push(row.target!);
    expect(all).toHaveLength(25);
  });

  it("names each target (workspace, policy, run, job) as it is today, with a link, or says it is gone", async () => {
    const db = t.current.db;
    await enroll(db, { id: "ws-audit", name: "docs", owner: "frank" });
    const who = { actor: { type: "system", label: "names" } } as const;
    const policy = { ...POLICY, name: "nightly debug" };
    const kept = await createPolicy(db, policy, TEST_WHO);
    const gone = await createPolicy(db, { ...policy, name: "short-lived" }, TEST_WHO);
    await deletePolicy(db, gone.id, TEST_WHO);
    const run = rowsOf<{ id: string }>(
      await db.execute(sql`insert into cleanup_runs (kind, recipe, scope, action, trash_days, min_age_hours, expires_days,
          created_at, created_by_type, created_by_label)
        values ('cleanup', 'codex-rollouts', '{"all":true}', 'trash', 7, 24, 7, '2026-03-01T10:20:00Z', 'system', 'test')
        returning id::text`),
    )[0].id;
    const job = rowsOf<{ id: string }>(
      await db.execute(sql`insert into cleanup_jobs (run_id, workspace_id, kind, expires_at)
        values (${run}::uuid, 'ws-audit', 'cleanup', now() + interval '7 days') returning id::text`),
    )[0].id;
    const entries = [
      { action: "workspace.token_reset", target: "ws-audit" },
      { action: "cleanup.policy_updated", target: kept.id },
      { action: "cleanup.run_created", target: run },
      { action: "cleanup.job_result", target: job },
      { action: "cleanup.run_cancelled", target: "00000000-0000-4000-8000-000000000000" },
      { action: "cleanup.policy_skipped", target: "not-a-uuid" },
      { action: "user.created", target: "someone@example.com" },
    ];
    for (const e of entries) await recordAudit(db, { ...who, ...e });
    const page = await listAudit(db, { actor: "names" }, { limit: 50 });
    const byAction = new Map(page.entries.map((e) => [e.action, e.targetName]));
    expect(byAction.get("workspace.token_reset")).toEqual({ label: "frank/docs", href: "/workspaces/ws-audit" });
    expect(byAction.get("cleanup.policy_updated")).toEqual({
      label: "policy “nightly debug”",
      href: `/cleanup/policies/${kept.id}`,
    });
    expect(byAction.get("cleanup.run_created")).toEqual({
      label: "run: Codex rollouts, 2026-03-01 10:20 UTC",
      href: `/cleanup/runs/${run}`,
    });
    expect(byAction.get("cleanup.job_result")).toEqual({
      label: "frank/docs's job in run: Codex rollouts, 2026-03-01 10:20 UTC",
      href: `/cleanup/runs/${run}`,
    });
    expect(byAction.get("cleanup.run_cancelled")).toEqual({ label: "a run since deleted", href: null });
    expect(byAction.get("cleanup.policy_skipped")).toEqual({ label: "a policy since deleted", href: null });
    expect(byAction.get("user.created")).toBeNull();
    // The deleted policy keeps the name its entry recorded.
    const deleted = (await listAudit(db, { action: "cleanup.policy_deleted" }, { limit: 5 })).entries[0];
    expect(deleted.targetName).toEqual({ label: "policy “short-lived” (deleted)", href: null });
  });

  it("is append-only in the database itself", async () => {
    const refused = { cause: { message: expect.stringMatching(/audit_log is append-only/) } };
    await expect(t.current.db.execute(sql`update audit_log set action = 'x'`)).rejects.toMatchObject(refused);
    await expect(t.current.db.execute(sql`delete from audit_log`)).rejects.toMatchObject(refused);
    await expect(t.current.db.execute(sql`truncate audit_log`)).rejects.toMatchObject(refused);
  });
});
