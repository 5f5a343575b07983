import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { resetConfigForTests } from "@/lib/config";
import type { Who } from "@/lib/db/queries/audit";
import { rowsOf, type Db } from "@/lib/db/types";
import { describeEachDatabase } from "@/tests/support/db";
import { claudeRoot, usage } from "@/tests/support/cleanup";
import { at, enroll, GiB, MiB, send, testNow, type RootSpec, type WorkspaceSpec } from "@/tests/support/reports";
import { decideCleanupAhead } from "./cleanup-ahead";
import { confirmPolicy, createPolicy } from "./cleanup-policies";

// The two kinds decided apart from the volume's figures: a growing file, after each report's kept refresh, and a
// cleanup ahead, in the hourly maintenance. Each is told once per state, again when it worsens (or at the next
// run), and not once it clears.

const TOTAL = 100 * GiB;
const volume = { totalBytes: TOTAL, usedBytes: 30 * GiB, freeBytes: 70 * GiB };
const ADMIN: Who = { actor: { type: "user", id: "u1", label: "admin@example.com" } };

const gib = (n: number) => Math.round(n * GiB);
const logs = (bigLog: number, others: [string, number][] = []): RootSpec => ({
  key: "claude-code:data",
  agent: "claude-code",
  path: ".claude",
  bytes: bigLog + 2 * GiB,
  largest: [
    { path: "debug/<b>big</b>.log", bytes: bigLog, mtime: "2026-01-01T00:00:00.000Z", type: "file" },
    { path: "projects", bytes: 2 * GiB, mtime: "2026-01-01T00:00:00.000Z", type: "dir" },
    ...others.map(([path, bytes]) => ({ path, bytes, mtime: "2026-01-01T00:00:00.000Z", type: "file" as const })),
  ],
});

const notices = async (db: Db, kind: string, workspaceId: string) =>
  rowsOf<{ figure: string; level: number }>(
    await db.execute(sql`select notice ->> 'figure' as figure, (notice ->> 'level')::int as level
      from notification_outbox where kind = ${kind} and workspace_id = ${workspaceId} order by created_at, id`),
  );
const state = async (db: Db, kind: string, workspaceId: string) =>
  rowsOf<{ state_key: string }>(
    await db.execute(sql`select state_key from notice_states where kind = ${kind} and workspace_id = ${workspaceId}`),
  );

describeEachDatabase("growing file and cleanup ahead notices", (t) => {
  const now = testNow();
  const GROW: WorkspaceSpec = { id: "ws-grow", name: "grow", owner: "gina" };
  const NEW: WorkspaceSpec = { id: "ws-new", name: "fresh", owner: "gina" };

  beforeAll(async () => {
    vi.stubEnv("STORAGE_NOTIFY_WEBHOOK_URL", "http://127.0.0.1:9/never-sent");
    vi.stubEnv("STORAGE_NOTIFY_WEBHOOK_ALLOW_PRIVATE", "1");
    resetConfigForTests();
    for (const ws of [GROW, NEW]) await enroll(t.current.db, ws);
  });
  afterAll(() => {
    vi.unstubAllEnvs();
    resetConfigForTests();
  });

  it("tells a file that grew by more than 1 GiB in a day once, again when it grows faster, not once it slows", async () => {
    const db = t.current.db;
    await send(db, GROW, at(now, 4, 10), [logs(gib(1))], volume);
    await send(db, GROW, at(now, 3, 10), [logs(gib(1.8))], volume);
    expect(await notices(db, "growing-file", GROW.id)).toEqual([]);

    await send(db, GROW, at(now, 3, 11), [logs(gib(2.5))], volume);
    await send(db, GROW, at(now, 3, 12), [logs(gib(2.6))], volume);
    expect(await notices(db, "growing-file", GROW.id)).toEqual([
      { figure: ".claude/debug/<b>big</b>.log grew by 1.5 GiB in a day", level: 1 },
    ]);

    await send(db, GROW, at(now, 2, 12), [logs(gib(5.6))], volume);
    expect((await notices(db, "growing-file", GROW.id)).map((n) => n.level)).toEqual([1, 2]);

    await send(db, GROW, at(now, 1, 12), [logs(gib(5.7))], volume);
    expect(await notices(db, "growing-file", GROW.id)).toHaveLength(2);
    expect(await state(db, "growing-file", GROW.id)).toEqual([]);
  });

  it("counts a file absent from the earlier report's largest entries from the smallest of them", async () => {
    const db = t.current.db;
    await send(db, NEW, at(now, 2, 10), [logs(500 * MiB, [["small.txt", 100 * MiB]])], volume);
    await send(db, NEW, at(now, 1, 10), [logs(500 * MiB, [["dump.bin", gib(1.2)]])], volume);
    expect(await notices(db, "growing-file", NEW.id)).toEqual([
      { figure: ".claude/dump.bin grew by 1.1 GiB in a day", level: 1 },
    ]);
  });

  it("tells an owner ahead of a policy's run that will delete their data, once per run, and not once it takes nothing", async () => {
    const db = t.current.db;
    const ws: WorkspaceSpec = { id: "ws-clean", name: "clean", owner: "carl" };
    await enroll(db, ws);
    await send(db, ws, at(now, 0, 9), [claudeRoot(usage({ 60: [5, 200 * MiB] }))], volume);
    const policy = await createPolicy(
      db,
      {
        name: "old sessions",
        recipe: "claude-code-sessions",
        params: { olderThanDays: 30 },
        scope: { workspaceIds: [ws.id] },
        schedule: "daily",
        enabled: true,
        dryRun: false,
        trashDays: 7,
        minAgeHours: 24,
        countStatusChanges: false,
        expiresDays: 7,
        runAtMinute: 180,
        runWeekday: 1,
      },
      ADMIN,
    );
    // Not confirmed: its turns are dry runs, which delete nothing.
    expect(await decideCleanupAhead(db)).toBe(0);
    await confirmPolicy(db, policy.id, 200 * MiB, ADMIN);
    expect(await decideCleanupAhead(db)).toBe(1);
    expect(await decideCleanupAhead(db)).toBe(0);
    const [told] = await notices(db, "cleanup-ahead", ws.id);
    expect(told.figure).toMatch(/^the policy "old sessions" deletes 200 MiB of .+ at \d{4}-\d\d-\d\d 03:00 UTC$/);

    // The run happened (its time passed) and took nothing yet: the run after it is a new state, told again.
    await db.execute(sql`update cleanup_policies set last_run_at = now() + interval '1 day' where id = ${policy.id}`);
    expect(await decideCleanupAhead(db)).toBe(1);

    // The sessions went (or were protected): nothing to take, the state is cleared and nothing is told.
    await send(db, ws, at(now, 0, 10), [claudeRoot(usage({}))], volume);
    expect(await decideCleanupAhead(db)).toBe(0);
    expect(await state(db, "cleanup-ahead", ws.id)).toEqual([]);
    expect(await notices(db, "cleanup-ahead", ws.id)).toHaveLength(2);
  });
});
