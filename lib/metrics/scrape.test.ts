// GET /metrics on both databases: who may scrape, what the exposition holds (names, units, help, types, the
// label bounds), and that its figures are the API's on a seeded fleet. Read with a Prometheus text parser.
import { beforeAll, expect, it } from "vitest";
import { SHOWN_JOB_STATES } from "@/lib/cleanup/job-states";
import * as reportsRoute from "@/app/api/v1/reports/route";
import * as batchRoute from "@/app/api/v1/reports/batch/route";
import * as overviewRoute from "@/app/api/v1/fleet/overview/route";
import * as runsRoute from "@/app/api/v1/cleanup/runs/route";
import * as atRiskRoute from "@/app/api/v1/volumes/at-risk/route";
import type { AtRiskPage } from "@/lib/db/queries/volumes-at-risk";
import { BASE, ctx, makePrincipals, type Principals } from "@/tests/support/auth";
import { claimJobs, storeJobResult } from "@/lib/services/cleanup-jobs";
import { createRun } from "@/lib/services/cleanup-runs";
import type { FleetOverview } from "@/lib/db/queries/fleet";
import type { RunList } from "@/lib/db/queries/cleanup-views";
import { describeEachDatabase, serveRoutesFrom, TEST_WHO } from "@/tests/support/db";
import { claudeRoot, doneResult, seedWorkspace, usage, type Enrolled } from "@/tests/support/cleanup";
import { samples, scrape, scrapeFamilies, type MetricFamily } from "@/tests/support/metrics";
import { enroll, GiB, makeReport, MiB, send, seedScenario, testNow } from "@/tests/support/reports";
import { resetConfigForTests } from "@/lib/config";
import { recordSyncError, recordSyncSuccess } from "./coder-sync";

/** The only label names an exposition may carry: bounded sets (channel: email or webhook), and the volume series' workspace and owner. */
const BOUNDED_LABELS = new Set([
  "agent",
  "template",
  "organization",
  "severity",
  "state",
  "reason",
  "outcome",
  "channel",
  "le",
]);
const VOLUME_FAMILIES = new Set([
  "coder_storage_workspace_volume_used_bytes",
  "coder_storage_workspace_volume_avail_bytes",
  "coder_storage_workspace_volume_inodes_used_ratio",
]);
/** Gauges that count things (no unit); every other name ends in a base unit. */
const COUNTS = new Set([
  "coder_storage_volumes_at_risk",
  "coder_storage_workspaces",
  "coder_storage_workspaces_reporting",
  "coder_storage_workspaces_silent",
  "coder_storage_findings",
  "coder_storage_cleanup_jobs",
  "coder_storage_workspaces_lost_at_restart",
]);

const RUN = {
  recipe: "claude-code-sessions" as const,
  params: { olderThanDays: 30 },
  trashDays: 7,
  minAgeHours: 24,
  countStatusChanges: false,
};

describeEachDatabase("GET /metrics", (t) => {
  let p: Principals;
  let cl: Enrolled;
  const now = testNow();
  const get = async <T>(module: { GET: unknown }, path: string): Promise<T> => {
    const handler = module.GET as (r: Request, c: unknown) => Promise<Response>;
    const res = await handler(
      new Request(`${BASE}${path}`, { headers: { authorization: `Bearer ${p.viewerToken}` } }),
      ctx(),
    );
    expect(res.status).toBe(200);
    return (await res.json()) as T;
  };

  beforeAll(async () => {
    const db = t.current.db;
    serveRoutesFrom(t.current);
    p = await makePrincipals(t.current, "metrics");
    await seedScenario(db, now);
    // A volume with inodes (a reporter from 0.2 on): 9 GiB used, 1 GiB available, 1 GiB reserved; 3 of 4 inodes.
    const echo = { id: "ws-e", name: "echo", owner: "erin" };
    await enroll(db, echo);
    await send(db, echo, new Date().toISOString(), [], {
      totalBytes: 11 * GiB,
      freeBytes: 1 * GiB,
      usedBytes: 9 * GiB,
      inodes: { total: 4000, used: 3000, free: 1000 },
    });
    // Cleanup: a run that freed 200 MiB, a dry run that would have, and a run still queued.
    const when = new Date(Date.now() + 5 * 60_000).toISOString();
    cl = await seedWorkspace(db, { id: "cl-a", owner: "alice", template: "ai-dev" }, when, [
      claudeRoot(usage({ 60: [5, 200 * MiB] })),
    ]);
    await seedWorkspace(db, { id: "cl-b", owner: "bob", template: "minimal" }, when, [
      claudeRoot(usage({ 90: [4, 400 * MiB] })),
    ]);
    for (const dryRun of [false, true]) {
      await createRun(db, { ...RUN, dryRun, scope: { workspaceIds: ["cl-a"] } }, TEST_WHO);
      const [job] = await claimJobs(db, "cl-a");
      await storeJobResult(db, "cl-a", job.id, doneResult(job.leaseToken, 200 * MiB, 5));
    }
    await createRun(db, { ...RUN, dryRun: false, scope: { workspaceIds: ["cl-b"] } }, TEST_WHO);
  });

  it("refuses anonymous callers and bad tokens (401 in the error envelope, no redirect); a viewer token or session scrapes", async () => {
    const anonymous = await scrape({});
    expect(anonymous.status).toBe(401);
    expect((await anonymous.json()).error.code).toBe("unauthorized");
    const bad = await scrape({ authorization: "Bearer sdt_not-a-token" });
    expect(bad.status).toBe(401);
    const viewer = await scrape({ authorization: `Bearer ${p.viewerToken}` });
    expect(viewer.status).toBe(200);
    expect(viewer.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    expect((await scrape({ cookie: p.viewer.cookie })).status).toBe(200);
  });

  it("names every family coder_storage_* in base units, with help and a type", async () => {
    const families = await scrapeFamilies(p.viewerToken);
    expect(families.length).toBeGreaterThanOrEqual(14);
    for (const f of families) {
      expect(f.name).toMatch(/^coder_storage_[a-z0-9_]+$/);
      expect(f.help.length, f.name).toBeGreaterThan(10);
      expect(["COUNTER", "GAUGE", "HISTOGRAM"], f.name).toContain(f.type);
      if (f.type === "COUNTER") expect(f.name).toMatch(/_total$/);
      else if (!COUNTS.has(f.name)) expect(f.name, f.name).toMatch(/_(bytes|seconds|ratio)$/);
      expect(f.name).not.toMatch(/_(milliseconds|percent|kb|mb|mib|gib|minutes|hours|days)(_|$)/);
    }
  });

  it("carries only bounded labels, per-workspace ones on the volume series alone, and never a path or root key", async () => {
    const families: MetricFamily[] = await scrapeFamilies(p.viewerToken);
    // The parser keeps no labels of a histogram's samples: each histogram must be one series, with no labels.
    const text = await (await scrape({ authorization: `Bearer ${p.viewerToken}` })).text();
    for (const f of families.filter((f) => f.type === "HISTOGRAM")) {
      expect(
        text.split("\n").filter((l) => l.startsWith(`${f.name}_count`)),
        f.name,
      ).toEqual([expect.stringMatching(new RegExp(`^${f.name}_count \\d+$`))]);
    }
    const rootKeys = ["claude-code:data", "codex:data", "script-data:0001", "acme/tool", "leftover:agentapi"];
    for (const f of families) {
      for (const m of f.metrics) {
        const names = Object.keys(m.labels ?? {});
        if (VOLUME_FAMILIES.has(f.name)) expect(names.sort(), f.name).toEqual(["owner", "workspace"]);
        else for (const n of names) expect(BOUNDED_LABELS.has(n), `${f.name}{${n}}`).toBe(true);
        for (const v of Object.values(m.labels ?? {})) {
          expect(v, f.name).not.toContain("/");
          expect(rootKeys, f.name).not.toContain(v);
        }
      }
    }
  });

  it("reports the figures the API shows: bytes by agent, workspaces, silent ones, findings by severity", async () => {
    const families = await scrapeFamilies(p.viewerToken);
    const o = await get<FleetOverview>(overviewRoute, "/api/v1/fleet/overview");
    expect(samples(families, "coder_storage_fleet_bytes")).toEqual(
      Object.fromEntries(o.topAgents.map((a) => [`agent=${a.agent}`, a.bytes])),
    );
    // The overview's top agents are at most 10: this fleet has fewer, so they are all of them.
    expect(o.topAgents.length).toBeLessThan(10);
    const sum = (name: string) => Object.values(samples(families, name)).reduce((a, b) => a + b, 0);
    expect(sum("coder_storage_workspaces")).toBe(o.total.workspaces);
    expect(sum("coder_storage_workspaces_reporting")).toBe(o.total.reportingWorkspaces);
    expect(sum("coder_storage_workspaces_silent")).toBe(o.silent.count);
    expect(o.silent.count).toBeGreaterThan(0);
    expect(samples(families, "coder_storage_silent_threshold_seconds")).toEqual({ "": o.silent.hours * 3600 });
    expect(samples(families, "coder_storage_workspaces")).toMatchObject({
      "template=ai-dev": 3,
      "template=minimal": 3,
    });
    expect(samples(families, "coder_storage_findings")).toEqual(
      Object.fromEntries(Object.entries(o.findings.bySeverity).map(([s, n]) => [`severity=${s}`, n])),
    );
  });

  it("gives the volumes at risk series of their own by default, and every volume's with STORAGE_METRICS_VOLUMES=all, as df does", async () => {
    // alpha fills (1 GiB to 9.375 GiB of 10 over 10 days); echo sits at 90 %, not growing: counted, not at risk.
    const atRisk = await scrapeFamilies(p.viewerToken);
    expect(samples(atRisk, "coder_storage_workspace_volume_used_bytes")).toEqual({
      "owner=alice,workspace=alpha": 9.375 * GiB,
    });
    expect(samples(atRisk, "coder_storage_volumes_at_risk")).toMatchObject({
      "reason=filling,template=ai-dev": 1,
      "reason=space,template=ai-dev": 0,
      "reason=inodes,template=ai-dev": 0,
      "reason=filling,template=minimal": 0,
    });
    // The at-risk page's counts.
    const page = await get<AtRiskPage>(atRiskRoute, "/api/v1/volumes/at-risk");
    const sum = (reason: string) =>
      Object.entries(samples(atRisk, "coder_storage_volumes_at_risk"))
        .filter(([k]) => k.startsWith(`reason=${reason},`))
        .reduce((s, [, n]) => s + n, 0);
    expect([sum("space"), sum("inodes"), sum("filling")]).toEqual([
      page.outOfSpace,
      page.outOfInodes,
      page.total - page.full,
    ]);

    const saved = process.env.STORAGE_METRICS_VOLUMES;
    process.env.STORAGE_METRICS_VOLUMES = "all";
    resetConfigForTests();
    let families: MetricFamily[];
    try {
      families = await scrapeFamilies(p.viewerToken);
    } finally {
      if (saved === undefined) delete process.env.STORAGE_METRICS_VOLUMES;
      else process.env.STORAGE_METRICS_VOLUMES = saved;
      resetConfigForTests();
    }
    // ws-a (reporter before 0.2): Size 10 GiB, Avail 0.625 GiB, so Used = Size − Avail and no inode counts.
    expect(samples(families, "coder_storage_workspace_volume_used_bytes")).toEqual({
      "owner=alice,workspace=alpha": 9.375 * GiB,
      "owner=erin,workspace=echo": 9 * GiB,
    });
    expect(samples(families, "coder_storage_workspace_volume_avail_bytes")).toEqual({
      "owner=alice,workspace=alpha": 0.625 * GiB,
      "owner=erin,workspace=echo": 1 * GiB,
    });
    expect(samples(families, "coder_storage_workspace_volume_inodes_used_ratio")).toEqual({
      "owner=erin,workspace=echo": 0.75,
    });
    expect(samples(families, "coder_storage_volumes_at_risk")).toEqual(
      samples(atRisk, "coder_storage_volumes_at_risk"),
    );
  });

  it("reports cleanup jobs and bytes freed as the runs list does", async () => {
    const families = await scrapeFamilies(p.viewerToken);
    const { runs } = await get<RunList>(runsRoute, "/api/v1/cleanup/runs");
    expect(runs).toHaveLength(3);
    const states: Record<string, number> = Object.fromEntries(SHOWN_JOB_STATES.map((s) => [`state=${s}`, 0]));
    for (const r of runs) for (const [s, n] of Object.entries(r.progress.states)) states[`state=${s}`] += n;
    expect(samples(families, "coder_storage_cleanup_jobs")).toEqual(states);
    expect(states).toMatchObject({ "state=done": 2, "state=queued": 1, "state=running": 0 });
    const freed = runs.filter((r) => !r.dryRun).reduce((s, r) => s + r.progress.bytesFreed, 0);
    expect(freed).toBe(200 * MiB);
    expect(samples(families, "coder_storage_cleanup_freed_bytes")).toEqual({ "": freed });
  });

  it("counts ingest outcomes and times them, refusals included", async () => {
    const before = await scrapeFamilies(p.viewerToken);
    const post = (token: string, body: unknown) =>
      reportsRoute.POST(
        new Request(`${BASE}/api/v1/reports`, {
          method: "POST",
          headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
          body: JSON.stringify(body),
        }),
        ctx(),
      );
    const report = makeReport(cl, new Date().toISOString(), [claudeRoot(usage({ 60: [5, 200 * MiB] }))]);
    expect((await post(cl.token, report)).status).toBe(200);
    expect((await post(cl.token, report)).status).toBe(200); // the same id again: a duplicate
    expect((await post("swt_wrong", report)).status).toBe(401);
    expect((await post(cl.token, { ...report, id: "not-a-uuid" })).status).toBe(422);
    const after = await scrapeFamilies(p.viewerToken);
    const delta = (name: string) => {
      const [a, b] = [samples(after, name), samples(before, name)];
      return Object.fromEntries(
        Object.keys(a)
          .map((k) => [k, a[k] - (b[k] ?? 0)])
          .filter(([, d]) => d !== 0),
      );
    };
    expect(delta("coder_storage_ingest_reports_total")).toEqual({
      "outcome=stored": 1,
      "outcome=duplicate": 1,
      "outcome=unauthorized": 1,
      "outcome=invalid": 1,
    });
    // Every request, whatever its outcome, was timed once.
    expect(delta("coder_storage_ingest_duration_seconds")).toEqual({ "": 4 });
  });

  it("counts a batch's reports one by one, each with its own outcome", async () => {
    const before = await scrapeFamilies(p.viewerToken);
    const fresh = makeReport(cl, new Date().toISOString(), [claudeRoot(usage({ 60: [5, 300 * MiB] }))]);
    const response = await batchRoute.POST(
      new Request(`${BASE}/api/v1/reports/batch`, {
        method: "POST",
        headers: { authorization: `Bearer ${cl.token}`, "content-type": "application/json" },
        body: JSON.stringify({ reports: [fresh, fresh, { ...fresh, id: "not-a-uuid" }] }),
      }),
      ctx(),
    );
    expect(response.status).toBe(200);
    const after = await scrapeFamilies(p.viewerToken);
    const [a, b] = [
      samples(after, "coder_storage_ingest_reports_total"),
      samples(before, "coder_storage_ingest_reports_total"),
    ];
    const delta = Object.fromEntries(
      Object.keys(a)
        .map((k) => [k, a[k] - (b[k] ?? 0)])
        .filter(([, d]) => d !== 0),
    );
    expect(delta).toEqual({ "outcome=stored": 1, "outcome=duplicate": 1, "outcome=invalid": 1 });
  });

  it("exposes the Coder sync's errors and last success through its hooks", async () => {
    const errors = () =>
      scrapeFamilies(p.viewerToken).then((f) => samples(f, "coder_storage_coder_sync_errors_total")[""]);
    const before = await errors();
    recordSyncError();
    recordSyncError();
    expect(await errors()).toBe(before + 2);
    recordSyncSuccess(new Date("2026-03-01T00:00:00Z"));
    const last = samples(
      await scrapeFamilies(p.viewerToken),
      "coder_storage_coder_sync_last_success_timestamp_seconds",
    );
    expect(last).toEqual({ "": Date.parse("2026-03-01T00:00:00Z") / 1000 });
  });
});
