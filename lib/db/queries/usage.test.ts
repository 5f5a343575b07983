import { sql } from "drizzle-orm";
import { beforeAll, expect, it } from "vitest";
import { FLEET, ownedBy } from "@/lib/db/scope";
import { cleanupJobs, cleanupRuns, teamGroups, teamMembers } from "@/lib/db/schema";
import { eachDay, type Day } from "@/lib/series";
import type { UsageDimension } from "@/lib/validations/usage";
import { describeEachDatabase } from "@/tests/support/db";
import { at, dayAgo, enroll, MiB, send, testNow, type WorkspaceSpec } from "@/tests/support/reports";
import { rows } from "@/tests/support/rollups";
import { applyCoderSync } from "./coder-sync";
import { fleetSeries } from "./fleet-series";
import { usageBy, type UsageFigures } from "./usage";
import { listWorkspaces } from "./workspace-list";

// The usage by team against the raw rows: a seeded fleet's reports (root_usage, the raw history) are replayed
// here day by day, each workspace at its last report of a day and carried while it is silent, and summed per
// dimension value; the query reads only the daily roll-ups.

const AGENTS = ["claude-code", "codex", "gemini-cli"];
const FLEET_SPECS: (WorkspaceSpec & { org: string })[] = [
  { id: "u-1", owner: "ann", template: "big", org: "org-a" },
  { id: "u-2", owner: "ann", template: "small", org: "org-a" },
  { id: "u-3", owner: "Ben", template: "big", org: "org-b" },
  { id: "u-4", owner: "cat", template: "small", org: "org-b" },
  { id: "u-5", owner: "dan", template: "big", org: "org-a" },
  { id: "u-6", owner: "eve", org: "org-b" },
];
/** Groups by member: ann and ben in two, dan in none. */
const GROUPS: Record<string, string[]> = { "g-data": ["ann", "ben"], "g-web": ["ann", "cat", "eve"] };

describeEachDatabase("usage by team, from the daily roll-ups", (t) => {
  const now = testNow();
  const today = dayAgo(now, 0);
  const month = { from: dayAgo(now, 30), to: dayAgo(now, 1) };
  const deletedOn = dayAgo(now, 12);

  beforeAll(async () => {
    const db = t.current.db;
    let seed = 7;
    const rand = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    for (const ws of FLEET_SPECS) await enroll(db, ws);
    for (let ago = 34; ago >= 0; ago--) {
      for (const [i, ws] of FLEET_SPECS.entries()) {
        if (rand() < 0.3 || (ws.id === "u-5" && ago < 12)) continue; // silent days; u-5 is deleted
        // u-6's gemini root leaves the reports 20 days ago; two reports on some days (the later one counts).
        const agents = AGENTS.filter(
          (a, k) => (k + i) % 3 !== 0 && !(ws.id === "u-6" && a === "gemini-cli" && ago < 20),
        );
        const roots = agents.map((agent) => ({ key: `${agent}:data`, agent, bytes: Math.round(rand() * 500) * MiB }));
        await send(db, ws, at(now, ago, 8), roots);
        if (rand() < 0.2)
          await send(
            db,
            ws,
            at(now, ago, 15),
            roots.map((r) => ({ ...r, bytes: r.bytes + MiB })),
          );
      }
    }
    await db.execute(sql`update workspaces set organization_id = case id
      ${sql.join(
        FLEET_SPECS.map((w) => sql`when ${w.id} then ${w.org}`),
        sql` `,
      )} end`);
    for (const [id, members] of Object.entries(GROUPS)) {
      await db.insert(teamGroups).values({ id, source: "coder", name: id, displayName: id, syncedAt: now });
      await db.insert(teamMembers).values(members.map((username) => ({ groupId: id, username })));
    }
    await applyCoderSync(db, [], [{ id: "u-5", at: new Date(`${deletedOn}T09:00:00Z`) }], now);
    const [run] = await db
      .insert(cleanupRuns)
      .values({
        kind: "cleanup",
        recipe: "codex-sessions",
        scope: { all: true },
        action: "delete",
        trashDays: 0,
        minAgeHours: 24,
        expiresDays: 7,
        createdByType: "system",
        createdByLabel: "test",
      })
      .returning();
    await db.insert(cleanupJobs).values([
      {
        runId: run.id,
        workspaceId: "u-3",
        kind: "cleanup",
        state: "done",
        rootKeys: ["claude-code:data"],
        expiresAt: now,
        finishedAt: new Date(`${dayAgo(now, 5)}T10:00:00Z`),
        bytesActed: 40 * MiB,
      },
      {
        runId: run.id,
        workspaceId: "u-4",
        kind: "cleanup",
        state: "done",
        rootKeys: ["codex:data"],
        expiresAt: now,
        finishedAt: new Date(`${dayAgo(now, 40)}T10:00:00Z`),
        bytesActed: 99 * MiB,
      },
    ]);
  }, 240_000);

  /** Each workspace's total per day from the raw rows: the last report of the day, carried; 0 once deleted. */
  async function rawLevels(by: (ws: string, agent: string) => string[]) {
    const raw = await rows<{ ws: string; report: string; at: string; agent: string; bytes: number }>(
      t.current.db,
      sql`select workspace_id as ws, report_id as report, collected_at::text as at, agent, bytes::float8 as bytes
        from root_usage order by collected_at`,
    );
    const lastOfDay = new Map<string, Map<Day, string>>(); // ws → day → report
    for (const r of raw) {
      const day = new Date(r.at).toISOString().slice(0, 10);
      if (!lastOfDay.has(r.ws)) lastOfDay.set(r.ws, new Map());
      lastOfDay.get(r.ws)!.set(day, r.report);
    }
    const level = (ws: string, day: Day) => {
      if (ws === "u-5" && day >= deletedOn) return new Map<string, number>();
      const days = [...(lastOfDay.get(ws) ?? new Map()).entries()].filter(([d]) => d <= day).sort();
      const report = days.at(-1)?.[1];
      const out = new Map<string, number>();
      for (const r of raw.filter((x) => x.report === report)) {
        for (const key of by(ws, r.agent)) out.set(key, (out.get(key) ?? 0) + Number(r.bytes));
      }
      return out;
    };
    const days = eachDay(month.from, month.to);
    const perDay = days.map((day) => {
      const sum = new Map<string, number>();
      for (const ws of FLEET_SPECS) for (const [k, b] of level(ws.id, day)) sum.set(k, (sum.get(k) ?? 0) + b);
      return sum;
    });
    const keys = new Set(perDay.flatMap((m) => [...m.keys()]));
    return new Map(
      [...keys].map((k) => {
        const series = perDay.map((m) => m.get(k) ?? 0);
        const byteDays = series.reduce((s, b) => s + b, 0);
        return [k, { byteDays, peak: Math.max(...series), growth: series.at(-1)! - series[0], series }];
      }),
    );
  }

  const keyOf: Record<UsageDimension, (ws: string, agent: string) => string[]> = {
    organization: (ws) => [FLEET_SPECS.find((w) => w.id === ws)!.org],
    owner: (ws) => [FLEET_SPECS.find((w) => w.id === ws)!.owner],
    template: (ws) => [FLEET_SPECS.find((w) => w.id === ws)!.template ?? ""],
    agent: (_ws, agent) => [agent],
    group: (ws) => {
      const owner = FLEET_SPECS.find((w) => w.id === ws)!.owner.toLowerCase();
      const groups = Object.entries(GROUPS)
        .filter(([, m]) => m.includes(owner))
        .map(([g]) => g);
      return groups.length ? groups : [""];
    },
  };

  const expectMatches = (rowsGot: UsageFigures[], want: Awaited<ReturnType<typeof rawLevels>>) => {
    const shown = rowsGot.filter((r) => r.byteDays > 0 || want.has(r.key));
    expect(shown.map((r) => r.key).sort()).toEqual([...want.keys()].sort());
    for (const r of shown) {
      const w = want.get(r.key)!;
      expect({ key: r.key, byteDays: r.byteDays, peak: r.peakBytes, growth: r.growthBytes }).toEqual({
        key: r.key,
        byteDays: w.byteDays,
        peak: w.peak,
        growth: w.growth,
      });
      expect(r.avgBytes).toBeCloseTo(w.byteDays / 30, 3);
    }
  };

  for (const dimension of ["organization", "group", "owner", "template", "agent"] as const) {
    it(`sums each ${dimension}'s days as the raw rows do`, async () => {
      const got = await usageBy(t.current.db, FLEET, dimension, month);
      expectMatches(got.rows, await rawLevels(keyOf[dimension]));
    });
  }

  it("has a total equal to the fleet chart's, each workspace once whatever its groups", async () => {
    const db = t.current.db;
    const { total, rows: groups } = await usageBy(db, FLEET, "group", month);
    const fleet = await fleetSeries(db, { key: "custom", ...month, days: 30 }, today);
    const totals = fleet.series.points.map((p) => p.total);
    expect(total.byteDays).toBe(totals.reduce((s, b) => s + b, 0));
    expect(total.peakBytes).toBe(Math.max(...totals));
    expect(total.growthBytes).toBe(totals.at(-1)! - totals[0]);
    expect(total.workspaces).toBe(6);
    // ann is in both groups: the groups' byte-days add up to more than the whole.
    expect(groups.reduce((s, r) => s + r.byteDays, 0)).toBeGreaterThan(total.byteDays);
  });

  it("counts cleanups that finished in the range to their workspace's row", async () => {
    const { rows: owners, total } = await usageBy(t.current.db, FLEET, "owner", month);
    expect(owners.find((r) => r.key === "Ben")!.freedBytes).toBe(40 * MiB);
    expect(owners.find((r) => r.key === "cat")!.freedBytes).toBe(0);
    expect(total.freedBytes).toBe(40 * MiB);
    const agents = await usageBy(t.current.db, FLEET, "agent", month);
    expect(agents.rows.find((r) => r.key === "claude-code")!.freedBytes).toBe(40 * MiB);
  });

  it("shows a member only their own workspaces", async () => {
    const db = t.current.db;
    const mine = await usageBy(db, ownedBy("ANN"), "group", month);
    const want = await rawLevels((ws) => (["u-1", "u-2"].includes(ws) ? ["g-data", "g-web"] : []));
    expectMatches(mine.rows, want);
    expect(mine.total.byteDays).toBe(want.get("g-data")!.byteDays);
    expect(mine.total.workspaces).toBe(2);
  });

  it("draws each top row's level per day", async () => {
    const { chart } = await usageBy(t.current.db, FLEET, "template", month, 2);
    const series = chart.points;
    const want = await rawLevels(keyOf.template);
    expect(chart.keys.sort()).toEqual(["big", "small"]);
    expect(series.map((p) => p.values.big)).toEqual(want.get("big")!.series);
    expect(series.map((p) => p.values.small)).toEqual(want.get("small")!.series);
  });

  it("links a row to its workspaces: the list filters by organization and by group, within the caller's scope", async () => {
    const db = t.current.db;
    const ids = async (scope: typeof FLEET, filter: { organization?: string; group?: string }) => {
      const list = await listWorkspaces(db, scope, { ...filter, sort: "name", dir: "asc", now });
      return { ids: list.rows.map((r) => r.id).sort(), names: list.teamFilters };
    };
    // u-5 (org-a) was deleted in Coder: the list leaves it out, as it does unfiltered.
    expect(await ids(FLEET, { organization: "org-a" })).toEqual({
      ids: ["u-1", "u-2"],
      names: { organization: null, group: null },
    });
    // Ben's workspace is his group's though his username is stored lower-cased.
    expect(await ids(FLEET, { group: "g-data" })).toEqual({
      ids: ["u-1", "u-2", "u-3"],
      names: { organization: null, group: "g-data" },
    });
    expect((await ids(ownedBy("ann"), { group: "g-web" })).ids).toEqual(["u-1", "u-2"]);
    expect((await ids(FLEET, { group: "g-none" })).ids).toEqual([]);
  });
});
