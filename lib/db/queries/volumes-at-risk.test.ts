import { beforeAll, expect, it } from "vitest";
import { describeEachDatabase } from "@/tests/support/db";
import { at, enroll, GiB, MiB, send, testNow } from "@/tests/support/reports";
import { getRules } from "./findings";
import { countVolumesAtRisk, volumesAtRiskPage } from "./volumes-at-risk";

const FULL = 12;
/** 10 GiB volumes: the i-th full one has i × 10 MiB free (97 % and more used); one more at 50 %. */
const volumeWith = (free: number) => ({ totalBytes: 10 * GiB, freeBytes: free, usedBytes: 10 * GiB - free });

describeEachDatabase("volumes at risk", (t) => {
  const now = testNow();
  beforeAll(async () => {
    const db = t.current.db;
    for (let i = 0; i < FULL; i++) {
      // sent in an order that is neither the free space's nor the ids'
      const n = (i * 5) % FULL;
      const ws = { id: `vr-${String(n).padStart(2, "0")}`, owner: "olga" };
      await enroll(db, ws);
      if (n === 3) {
        // a week ago, then now: its Codex root grew by 2 GiB
        await send(db, ws, at(now, 7), [{ key: "codex:data", agent: "codex", bytes: 1 * GiB }], volumeWith(4 * GiB));
      }
      await send(
        db,
        ws,
        at(now, 0),
        [{ key: "codex:data", agent: "codex", bytes: 3 * GiB }],
        volumeWith((FULL - n) * 10 * MiB),
      );
    }
    const calm = { id: "vr-calm", owner: "olga" };
    await enroll(db, calm);
    await send(db, calm, at(now, 0), [{ key: "codex:data", agent: "codex", bytes: GiB }], volumeWith(5 * GiB));
  });

  it("lists every full volume, least free space first, a page at a time by key, with the count", async () => {
    const db = t.current.db;
    const rules = await getRules(db);
    const seen: string[] = [];
    let after: string[] | null = null;
    for (let pages = 0; pages < 10; pages++) {
      const page = await volumesAtRiskPage(db, { rules, now, days: 7, limit: 5, after });
      expect(page).toMatchObject({ total: FULL, full: FULL, days: 7 });
      seen.push(...page.volumes.map((v) => v.workspace.id));
      for (const v of page.volumes) expect(v.daysUntilFull).toBe(0);
      if (!page.next) break;
      after = JSON.parse(page.next) as string[];
    }
    // vr-11 has 10 MiB free, vr-00 120 MiB: fewest days (all 0), then least free space
    expect(seen).toEqual(Array.from({ length: FULL }, (_, i) => `vr-${String(FULL - 1 - i).padStart(2, "0")}`));
    await expect(countVolumesAtRisk(db, rules, now, 7)).resolves.toBe(FULL);
  });

  it("says why a volume fills: its roots that grew over 7 days, largest first", async () => {
    const db = t.current.db;
    const page = await volumesAtRiskPage(db, { rules: await getRules(db), now, days: 7, limit: 50 });
    const grew = page.volumes.find((v) => v.workspace.id === "vr-03")!;
    expect(grew.growingRoots).toEqual([{ rootKey: "codex:data", agent: "codex", growthBytes: 2 * GiB }]);
    expect(page.volumes.find((v) => v.workspace.id === "vr-04")!.growingRoots).toEqual([]);
  });
});
