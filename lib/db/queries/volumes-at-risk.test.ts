import { beforeAll, expect, it } from "vitest";
import { describeEachDatabase } from "@/tests/support/db";
import { at, enroll, GiB, MiB, send, testNow } from "@/tests/support/reports";
import { getRules } from "./findings";
import { volumesWhy } from "./volume-why";
import { countVolumesAtRisk, everyVolumeAtRisk, volumesAtRiskPage } from "./volumes-at-risk";

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

  it("reads every volume at risk by key for the CSV, in the page's order", async () => {
    const db = t.current.db;
    const rules = await getRules(db);
    const whole = await volumesAtRiskPage(db, { rules, now, days: 7, limit: 50 });
    const read = [];
    for await (const v of everyVolumeAtRisk(db, { rules, now, days: 7, pageSize: 5 })) read.push(v);
    expect(read).toEqual(whole.volumes);
  });

  it("says why a volume fills: its roots that grew over 7 days, largest first", async () => {
    const db = t.current.db;
    const page = await volumesAtRiskPage(db, { rules: await getRules(db), now, days: 7, limit: 50 });
    const grew = page.volumes.find((v) => v.workspace.id === "vr-03")!;
    expect(grew.why.growingRoots).toEqual([{ rootKey: "codex:data", agent: "codex", growthBytes: 2 * GiB }]);
    expect(page.volumes.find((v) => v.workspace.id === "vr-04")!.why.growingRoots).toEqual([]);
  });
});

/** A home of `agents` bytes in roots and the rest in `folders` (the report's refine: the parts add up). */
const homeOf = (agents: number, folders: { path: string; bytes: number }[]) => {
  const rest = folders.reduce((s, f) => s + f.bytes, 0);
  return {
    bytes: agents + rest,
    apparentBytes: agents + rest,
    files: 10,
    dirs: 2,
    roots: { agents, modules: 0, other: 0 },
    rest,
    kinds: {},
    largest: folders,
  };
};

describeEachDatabase("why a volume fills", (t) => {
  const now = testNow();
  const full = { id: "why-full", owner: "olga" };
  const inodes = { id: "why-inodes", owner: "olga" };
  const outside = { id: "why-outside", owner: "olga" };
  beforeAll(async () => {
    const db = t.current.db;
    for (const ws of [full, inodes, outside]) await enroll(db, ws);
    const agents = [
      { key: "claude:projects", agent: "claude-code", bytes: 3 * GiB, files: 10 },
      { key: "codex:sessions", agent: "codex", bytes: 2 * GiB, files: 20 },
      { key: "goose:data", agent: "goose", bytes: 1 * GiB, files: 30 },
      { key: "gemini:tmp", agent: "gemini", bytes: 1 * MiB, files: 40 },
    ];
    const folders = [
      { path: "projects", bytes: 2 * GiB },
      { path: "tmp", bytes: GiB },
    ];
    await send(db, full, at(now, 0), agents, volumeWith(100 * MiB), {
      home: homeOf(6 * GiB + MiB, folders),
    });
    // half its bytes used, 99 % of its inodes: out of inodes, not of space
    await send(db, inodes, at(now, 0), agents, {
      ...volumeWith(5 * GiB),
      inodes: { total: 1000, used: 990, free: 10 },
    });
    // a week ago 4 GiB used, 1 GiB of it in its root; now 7 GiB used, 1.5 GiB in its root
    const grows = (bytes: number) => [{ key: "codex:sessions", agent: "codex", bytes }];
    await send(db, outside, at(now, 7), grows(GiB), volumeWith(6 * GiB));
    await send(db, outside, at(now, 0), grows(1.5 * GiB), volumeWith(3 * GiB));
  });

  it("counts the volumes out of inodes apart from those out of space, and says which ran out", async () => {
    const db = t.current.db;
    const page = await volumesAtRiskPage(db, { rules: await getRules(db), now, days: 7, limit: 50 });
    expect(page).toMatchObject({ full: 2, outOfSpace: 1, outOfInodes: 1 });
    const by = new Map(page.volumes.map((v) => [v.workspace.id, v.fullBy]));
    expect(by.get("why-full")).toBe("space");
    expect(by.get("why-inodes")).toBe("inodes");
  });

  it("names a full volume's largest roots and folders, and the roots with most files", async () => {
    const db = t.current.db;
    const why = (await volumesWhy(db, [full.id, inodes.id], now)).get(full.id)!;
    expect(why.largestRoots.map((r) => [r.rootKey, r.bytes])).toEqual([
      ["claude:projects", 3 * GiB],
      ["codex:sessions", 2 * GiB],
      ["goose:data", GiB],
    ]);
    expect(why.homeFolders.map((f) => f.path)).toEqual(["projects", "tmp"]);
    // files + dirs (each root has one folder): gemini's 40 files are most, though it is the smallest
    expect(why.mostInodesRoots.map((r) => [r.rootKey, r.inodes])).toEqual([
      ["gemini:tmp", 41],
      ["goose:data", 31],
      ["codex:sessions", 21],
    ]);
  });

  it("names the growth of Used outside the measured roots", async () => {
    const db = t.current.db;
    const why = (await volumesWhy(db, [outside.id, full.id], now)).get(outside.id)!;
    expect(why.growingRoots).toEqual([{ rootKey: "codex:sessions", agent: "codex", growthBytes: 0.5 * GiB }]);
    // Used grew by 3 GiB, the root by 0.5 GiB
    expect(why.outsideGrowthBytes).toBe(2.5 * GiB);
    // no value a week ago: unknown, not zero
    expect((await volumesWhy(db, [full.id], now)).get(full.id)!.outsideGrowthBytes).toBeNull();
  });
});
