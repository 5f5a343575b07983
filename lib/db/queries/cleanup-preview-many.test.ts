import { sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { RECIPE_AGE_STEPS_DAYS, RECIPES } from "@/lib/catalog/recipes";
import { MIN_AGE_HOURS } from "@/lib/cleanup/defaults";
import type { Scope } from "@/lib/cleanup/protocol";
import { workspaces } from "@/lib/db/schema";
import { freeSpaceRows, FREE_SPACE_CHOICES } from "@/lib/cleanup/free-space";
import { seedDemoFleet } from "@/lib/demo/fleet";
import { freeSpacePreview } from "@/lib/services/free-space";
import { describeEachDatabase } from "@/tests/support/db";
import { enroll, GiB, makeReport, MiB } from "@/tests/support/reports";
import { ingestReport } from "@/lib/ingest/report";
import { cleanupCatalog } from "./cleanup-catalog";
import { previewRun } from "./cleanup-preview";
import { previewRecipes } from "./cleanup-preview-many";

// Every recipe's preview from one read (the free-space view's one request, the catalog's one query) must be the
// preview a run of that recipe alone gets: the figure the admin picks is the figure the run is checked against.

const NOW = new Date();
const byAge = (bytes: number) => [
  ...RECIPE_AGE_STEPS_DAYS.map(() => [0, 0] as [number, number]),
  [2, bytes] as [number, number],
];

describeEachDatabase("every recipe's preview at once", (t) => {
  // one demo fleet for the tests that read it, seeded by the first that asks
  const seeded = new WeakSet<object>();
  const demoFleet = async () => {
    const db = t.current.db;
    if (!seeded.has(db)) await seedDemoFleet(db, { workspaces: 40, days: 2, simulateDays: 60 });
    seeded.add(db);
    return db;
  };

  it("equals each recipe's own preview, over the fleet and on one workspace, with the defaults and at the minimum age", async () => {
    const db = await demoFleet();
    const [{ id: one }] = await db.select({ id: workspaces.id }).from(workspaces).orderBy(workspaces.id).limit(1);
    const scopes: [Scope, boolean][] = [
      [{ all: true }, false],
      [{ workspaceIds: [one] }, true],
    ];
    for (const [scope, includeSilent] of scopes) {
      const runs = RECIPES.flatMap((r) =>
        [r.defaultOlderThanDays, 0].map((olderThanDays) => ({
          recipe: r.id,
          params: { olderThanDays },
          minAgeHours: MIN_AGE_HOURS.default,
        })),
      );
      const many = await previewRecipes(db, runs, scope, { now: NOW, includeSilent, listAll: true });
      for (const [i, run] of runs.entries()) {
        const alone = await previewRun(db, { ...run, scope }, { now: NOW, includeSilent, listAll: true });
        const sorted = (p: typeof alone) => ({
          ...p,
          workspaces: p.workspaces.map((w) => ({ ...w, roots: [...w.roots].sort() })),
        });
        expect(sorted(many[i]), `${run.recipe} older than ${run.params.olderThanDays}`).toEqual(sorted(alone));
      }
    }
    // the demo fleet gives most recipes something to free: the comparison is not of empty previews
    const catalog = await cleanupCatalog(db);
    expect(catalog.recipes.filter((r) => r.fleet.bytes > 0).length).toBeGreaterThan(5);
  });

  it("splits each agent's reclaimable figure into now (deleted) and once the trash expires (trashed)", async () => {
    const db = await demoFleet();
    const catalog = await cleanupCatalog(db);
    for (const r of catalog.recipes) {
      expect(r.fleet.nowBytes + r.fleet.laterBytes).toBe(r.fleet.bytes);
      expect(r.fleet.laterBytes > 0).toBe(r.defaultAction === "trash" && r.fleet.bytes > 0);
      expect(r.fleet.laterDays).toBe(7);
    }
    const claude = catalog.agents.find((a) => a.agent === "claude-code")!;
    const mine = catalog.recipes.filter((r) => r.agent === "claude-code");
    expect(claude.recipes.toSorted()).toEqual(mine.map((r) => r.id).toSorted());
    // sessions go to the trash, debug logs and file history are deleted
    expect(claude.laterBytes).toBe(catalog.recipes.find((r) => r.id === "claude-code-sessions")!.fleet.bytes);
    expect(claude.nowBytes).toBe(
      mine.filter((r) => r.defaultAction === "delete").reduce((s, r) => s + r.fleet.bytes, 0),
    );
    expect(claude.laterBytes).toBeGreaterThan(0);
    expect(claude.nowBytes).toBeGreaterThan(0);
    // largest first, every agent with a recipe listed once
    const totals = catalog.agents.map((a) => a.nowBytes + a.laterBytes);
    expect(totals).toEqual(totals.toSorted((a, b) => b - a));
    expect(new Set(catalog.agents.map((a) => a.agent))).toEqual(new Set(RECIPES.map((r) => r.agent)));
  });

  it("answers the free-space view of one workspace with every recipe twice and its trash; refuses a deleted one", async () => {
    const db = t.current.db;
    const ws = { id: "full", owner: "yara" };
    await enroll(db, ws);
    const collectedAt = new Date(NOW.getTime() - 3600_000).toISOString();
    await ingestReport(
      db,
      ws.id,
      makeReport(
        ws,
        collectedAt,
        [
          {
            key: "claude-code:data",
            agent: "claude-code",
            bytes: 3 * GiB,
            recipes: {
              "claude-code-sessions": {
                units: 2,
                bytes: 2 * GiB,
                protectedUnits: 0,
                protectedBytes: 0,
                byAge: byAge(2 * GiB),
              },
              "claude-code-debug": {
                units: 2,
                bytes: 300 * MiB,
                protectedUnits: 0,
                protectedBytes: 0,
                byAge: byAge(300 * MiB),
              },
            },
          },
          {
            key: "trash",
            kind: "trash",
            agent: "other",
            bytes: 700 * MiB,
            path: ".coder-modules/coder/storage-reporter/trash",
          },
        ],
        { totalBytes: 10 * GiB, usedBytes: 10 * GiB, freeBytes: 0 },
      ),
    );
    const answer = await freeSpacePreview(db, ws.id, NOW);
    expect(answer.trash).toEqual({ bytes: 700 * MiB });
    expect(answer.recipes.map((r) => r.recipe)).toEqual(freeSpaceRows(ws.id).map((r) => r.recipe.id));
    const of = (id: string) => answer.recipes.find((r) => r.recipe === id)!;
    for (const c of FREE_SPACE_CHOICES) {
      expect(of("claude-code-sessions")[c].total.bytes).toBe(2 * GiB);
      expect(of("claude-code-debug")[c].total.bytes).toBe(300 * MiB);
      expect(of("codex-rollouts")[c].total.bytes).toBe(0);
    }
    await db.execute(sql`update workspaces set deleted_at = now() where id = ${ws.id}`);
    await expect(freeSpacePreview(db, ws.id, NOW)).rejects.toMatchObject({ status: 409 });
  });
});
