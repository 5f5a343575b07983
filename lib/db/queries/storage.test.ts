// The Settings page's table sizes: exact row counts where a count is cheap, the planner's estimate with its age
// where it is not, on both databases.
import { sql } from "drizzle-orm";
import { beforeAll, expect, it } from "vitest";
import { recordAudit } from "@/lib/db/queries/audit";
import { describeEachDatabase, TEST_WHO } from "@/tests/support/db";
import { rowsOf } from "@/lib/db/types";
import { seedScenario, testNow } from "@/tests/support/reports";
import { getStorageSettings, getTableSizes } from "./storage";

describeEachDatabase("table sizes", (t) => {
  beforeAll(async () => {
    await seedScenario(t.current.db, testNow());
    for (let i = 0; i < 3; i++) await recordAudit(t.current.db, { ...TEST_WHO, action: "test.counted" });
  });

  it("counts small tables exactly, before any ANALYZE has run (a fresh table's estimate says 0 or nothing)", async () => {
    const db = t.current.db;
    const { tables, exactCountMaxBytes } = await getStorageSettings(db);
    expect(exactCountMaxBytes).toBeGreaterThan(0);
    for (const name of ["audit_log", "reports", "workspaces"]) {
      const shown = tables.find((x) => x.table === name)!;
      const [{ n }] = rowsOf<{ n: number }>(
        await db.execute(sql`select count(*)::int as n from ${sql.identifier(name)}`),
      );
      expect(shown, name).toMatchObject({ rows: Number(n), exact: true, estimatedAt: null });
      expect(Number(n), name).toBeGreaterThan(0);
    }
    // Every table is listed once, partitions under their parent.
    expect(new Set(tables.map((x) => x.table)).size).toBe(tables.length);
    expect(tables.find((x) => x.table === "root_usage")!.partitions).toBeGreaterThan(0);
  });

  it("gives larger tables the planner's estimate, said to be one, with the time of the analysis it comes from", async () => {
    const db = t.current.db;
    // Every table counts as large here.
    const before = (await getTableSizes(db, 0)).find((x) => x.table === "audit_log")!;
    expect(before.exact).toBe(false);
    await db.execute(sql`analyze audit_log`);
    const after = (await getTableSizes(db, 0)).find((x) => x.table === "audit_log")!;
    const [{ n }] = rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from audit_log`));
    expect(after).toMatchObject({ exact: false, rows: Number(n) });
    expect(Date.now() - Date.parse(after.estimatedAt!)).toBeLessThan(10 * 60_000);
  });
});
