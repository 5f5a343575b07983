// A fleet-wide run over the demo fleet, answered by simulated reporters (the claim and result functions the
// endpoints call), and the fleet-wide preview at 10,000 workspaces.
import { sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { RECIPE_AGE_STEPS_DAYS, RECIPES } from "@/lib/catalog/recipes";
import { claimJobs, storeJobResult, sweepJobs } from "@/lib/services/cleanup-jobs";
import { previewRun } from "@/lib/db/queries/cleanup-preview";
import { createRun } from "@/lib/services/cleanup-runs";
import type { Who } from "@/lib/db/queries/audit";
import { getRunDetail } from "@/lib/db/queries/cleanup-views";
import { describeEachDatabase } from "@/tests/support/db";
import { seedDemoFleet } from "@/lib/demo/fleet";
import { doneResult, FLEET_CLAUDE_RUN } from "@/tests/support/cleanup";

const ADMIN: Who = { actor: { type: "user", id: "u1", label: "admin@example.com" } };

describeEachDatabase("cleanup across a fleet", (t) => {
  // Seeds 200 workspaces (60 simulated days) and runs every job: over a minute on the embedded database under CI load.
  it("completes a fleet-wide run with every job accounted for", async () => {
    const db = t.current.db;
    await seedDemoFleet(db, { workspaces: 200, days: 2, simulateDays: 60 });
    const request = { ...FLEET_CLAUDE_RUN };
    const preview = await previewRun(db, request);
    expect(preview.total.workspaces).toBeGreaterThan(50);
    expect(preview.total.bytes).toBeGreaterThan(0);
    const run = await createRun(db, { ...request, confirmBytes: preview.total.bytes }, ADMIN);
    expect(run.jobs).toBe(preview.total.workspaces);

    const detail = (await getRunDetail(db, run.id, { limit: run.jobs }))!;
    const workspaces = detail.jobs.map((j) => j.workspaceId);
    // One workspace is stopped (never calls in); one reporter dies mid-job and its lease runs out; the rest answer.
    const [stopped, dies] = workspaces;
    const soon = new Date(Date.now() + 11 * 60_000);
    for (const ws of workspaces.slice(1)) {
      const [job] = await claimJobs(db, ws);
      if (ws === dies) continue;
      await storeJobResult(
        db,
        ws,
        job.id,
        doneResult(job.leaseToken, detail.jobs.find((j) => j.id === job.id)!.previewBytes),
      );
    }
    await sweepJobs(db, soon);
    const [again] = await claimJobs(db, dies, soon);
    await storeJobResult(db, dies, again.id, doneResult(again.leaseToken, 1));
    await sweepJobs(db, new Date(Date.now() + 8 * 86_400_000));

    const end = (await getRunDetail(db, run.id, { limit: run.jobs }))!;
    expect(end.jobs.find((j) => j.workspaceId === stopped)!.state).toBe("expired");
    expect(end.run.progress).toMatchObject({ jobs: run.jobs, finished: run.jobs });
    expect(end.run.progress.states).toMatchObject({
      done: run.jobs - 1,
      expired: 1,
      queued: 0,
      running: 0,
      interrupted: 0,
    });
    expect(end.run.status).toBe("finished");
    expect(end.jobs.find((j) => j.workspaceId === dies)).toMatchObject({
      attempts: 2,
      interruptions: 1,
      state: "done",
    });
  }, 180_000);

  // The demo fleet stands for real reports: a recipe that previews nothing where the fleet holds its agent's
  // data (Cursor CLI's chats counted as databases did) shows admins an empty catalog row for a full folder.
  it("previews something for every recipe, with its defaults, over the demo fleet that holds its roots", async () => {
    const db = t.current.db;
    const empty: string[] = [];
    for (const r of RECIPES) {
      const preview = await previewRun(db, {
        recipe: r.id,
        params: { olderThanDays: r.defaultOlderThanDays },
        scope: { all: true },
        minAgeHours: 24,
      });
      const withRoot = preview.total.workspaces + preview.zeroWorkspaces + preview.withoutUsage.count;
      if (withRoot === 0 || preview.total.bytes === 0) empty.push(`${r.id} (${withRoot} workspaces with its roots)`);
    }
    expect(empty).toEqual([]);
  });

  // Its time is the scale bench's to measure (npm run bench -- scale), not a test's.
  it("previews fleet-wide at 10,000 workspaces from the latest roots only", async () => {
    const db = t.current.db;
    const byAge = JSON.stringify([...RECIPE_AGE_STEPS_DAYS.map((_, i) => [i, i * 1000]), [3, 9000]]);
    const usage = `{"codex-rollouts": {"units": 123, "bytes": 129000, "protectedUnits": 0, "protectedBytes": 0, "byAge": ${byAge}}}`;
    await db.execute(
      sql`insert into workspaces (id, name, owner) select 'big-' || g, 'big-' || g, 'o' || (g % 50) from generate_series(1, 10000) g`,
    );
    await db.execute(
      sql.raw(`insert into root_latest (report_id, collected_at, workspace_id, root_key, kind, agent, path, bytes, apparent_bytes, files, dirs, recipes)
      select gen_random_uuid(), now(), 'big-' || g, k, 'tool', split_part(k, ':', 1), '.x', 200000, 200000, 10, 1,
        case when k = 'codex:data' then '${usage}'::jsonb else '{}'::jsonb end
      from generate_series(1, 10000) g, unnest(array['codex:data', 'claude-code:data', 'gemini:data', 'coder/claude-code']) k`),
    );
    await db.execute(sql`analyze root_latest`);
    const preview = await previewRun(db, {
      recipe: "codex-rollouts",
      params: { olderThanDays: 30 },
      scope: { all: true },
      minAgeHours: 24,
    });
    expect(preview.total.workspaces).toBeGreaterThanOrEqual(10_000);
    expect(preview.workspaces).toHaveLength(500);
    expect(preview.truncated).toBe(true);
  });
});
