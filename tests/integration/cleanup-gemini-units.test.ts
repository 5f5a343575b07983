// A Gemini CLI session is one unit across five folders from reporter 0.5.0; earlier reporters counted its chat
// file alone. A preview or run must not build a job on such a chat-only figure: once the reporter is updated,
// the job would remove whole sessions, more than the admin saw. On both databases, through the API.
import { eq } from "drizzle-orm";
import { beforeAll, expect, it } from "vitest";
import * as previewRoute from "@/app/api/v1/cleanup/preview/route";
import * as runsRoute from "@/app/api/v1/cleanup/runs/route";
import { BASE, ctx, makePrincipals, type Principals } from "@/tests/support/auth";
import { cleanupJobs } from "@/lib/db/schema";
import { describeEachDatabase, serveRoutesFrom } from "@/tests/support/db";
import type { RecipeUsage } from "@/lib/report-format/schema";
import { createRun } from "@/lib/services/cleanup-runs";
import { claudeRoot, FLEET_CLAUDE_RUN, seedWorkspace, usage } from "@/tests/support/cleanup";
import { MiB } from "@/tests/support/reports";

const GEMINI_RUN = { ...FLEET_CLAUDE_RUN, recipe: "gemini-chats" as const };
const ADMIN = { actor: { type: "user" as const, id: "u1", label: "admin@example.com" } };
const OLD_REASON = "its reporter (0.4.0) counts Gemini sessions as chat files only; update it to 0.5.0 or later";

const geminiRoot = (chats: RecipeUsage) => ({
  key: "gemini:data",
  agent: "gemini",
  bytes: 300 * MiB,
  recipes: { "gemini-chats": chats },
});

describeEachDatabase("gemini-chats previews and runs by reporter version", (t) => {
  let p: Principals;

  beforeAll(async () => {
    const db = t.current.db;
    serveRoutesFrom(t.current);
    // Ahead of the clock (within the accepted skew), so the units' ages are those of the report.
    const when = new Date(Date.now() + 5 * 60_000).toISOString();
    const old = [geminiRoot(usage({ 60: [6, 60 * MiB] })), claudeRoot(usage({ 60: [2, 20 * MiB] }))];
    await seedWorkspace(db, { id: "gm-old", owner: "olga" }, when, old, "0.4.0");
    await seedWorkspace(db, { id: "gm-new", owner: "nina" }, when, [geminiRoot(usage({ 60: [3, 90 * MiB] }))], "0.5.0");
    p = await makePrincipals(t.current, "cleanup");
  });

  const post = (route: typeof previewRoute | typeof runsRoute, path: string, body: unknown) =>
    route.POST(
      new Request(`${BASE}/api/v1/cleanup/${path}`, {
        method: "POST",
        headers: { authorization: `Bearer ${p.adminToken}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      }),
      ctx(),
    );

  it("previews only the 0.5.0 workspace and names the 0.4.0 one with its reason", async () => {
    const res = await post(previewRoute, "preview", GEMINI_RUN);
    expect(res.status).toBe(200);
    const preview = await res.json();
    expect(preview.workspaces.map((w: { workspaceId: string }) => w.workspaceId)).toEqual(["gm-new"]);
    expect(preview.total).toMatchObject({ workspaces: 1, units: 3, bytes: 90 * MiB });
    expect(preview.outdated).toEqual({
      count: 1,
      workspaces: [{ workspaceId: "gm-old", name: "gm-old", owner: "olga", reason: OLD_REASON }],
    });
    expect(preview.withoutUsage.count).toBe(0);
    expect(preview.zeroWorkspaces).toBe(0);
  });

  it("queues a job for the 0.5.0 workspace only, on the figure the admin confirmed", async () => {
    const res = await post(runsRoute, "runs", { ...GEMINI_RUN, confirmBytes: 90 * MiB });
    expect(res.status).toBe(201);
    const run = await res.json();
    const jobs = await t.current.db.select().from(cleanupJobs).where(eq(cleanupJobs.runId, run.id));
    expect(jobs.map((j) => [j.workspaceId, j.previewBytes])).toEqual([["gm-new", 90 * MiB]]);
  });

  it("refuses a run whose only workspace is left out, saying why", async () => {
    const run = createRun(t.current.db, { ...GEMINI_RUN, scope: { workspaceIds: ["gm-old"] } }, ADMIN);
    await expect(run).rejects.toThrow(`Nothing to clean up`);
    await expect(run).rejects.toThrow(`1 workspace left out: olga/gm-old: ${OLD_REASON}.`);
    const jobs = await t.current.db.select().from(cleanupJobs).where(eq(cleanupJobs.workspaceId, "gm-old"));
    expect(jobs).toEqual([]);
  });

  it("leaves other recipes of the same 0.4.0 workspace alone: their units did not change", async () => {
    const res = await post(previewRoute, "preview", { ...FLEET_CLAUDE_RUN, scope: { workspaceIds: ["gm-old"] } });
    const preview = await res.json();
    expect(preview.workspaces.map((w: { workspaceId: string; bytes: number }) => [w.workspaceId, w.bytes])).toEqual([
      ["gm-old", 20 * MiB],
    ]);
    expect(preview.outdated).toEqual({ count: 0, workspaces: [] });
  });
});
