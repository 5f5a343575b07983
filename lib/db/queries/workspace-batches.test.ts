import { sql } from "drizzle-orm";
import { beforeAll, expect, it } from "vitest";
import { describeEachDatabase } from "@/tests/support/db";
import { seedScenario, testNow } from "@/tests/support/reports";
import { rowsOf } from "../types";
import { workspaceFilter } from "./rule-rows";
import { workspaceRanges } from "./workspace-batches";

// The ranges a fleet-wide rewrite goes through: every workspace in exactly one, whatever their size.

describeEachDatabase("workspace ranges", (t) => {
  beforeAll(async () => {
    await seedScenario(t.current.db, testNow());
  });

  it("cover every workspace once, in the ids' order", async () => {
    const db = t.current.db;
    const ids = rowsOf<{ id: string }>(await db.execute(sql`select id from workspaces order by id`)).map((r) => r.id);
    expect(ids.length).toBeGreaterThanOrEqual(3);
    for (const size of [1, 2, ids.length, ids.length + 1]) {
      const ranges = await workspaceRanges(db, size);
      expect(ranges).toHaveLength(Math.ceil(ids.length / size));
      expect(ranges[0].from).toBeNull();
      expect(ranges.at(-1)!.to).toBeNull();
      const seen: string[] = [];
      for (const range of ranges) {
        const inRange = rowsOf<{ id: string }>(
          await db.execute(sql`select id from workspaces where true ${workspaceFilter(sql`id`, range)} order by id`),
        ).map((r) => r.id);
        expect(inRange.length).toBeLessThanOrEqual(size);
        seen.push(...inRange);
      }
      expect(seen).toEqual(ids);
    }
  });
});
