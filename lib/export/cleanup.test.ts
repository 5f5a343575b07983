// The cleanup exports, through their routes as a viewer token, on both databases: every run with its jobs
// counted by state, and one run's outcomes (units acted, skipped with their reason, errors, jobs without any).
import { parse } from "csv-parse/sync";
import { beforeAll, expect, it } from "vitest";
import { GET as runCsv } from "@/app/api/v1/export/cleanup/runs/[id]/route";
import { GET as runsCsv } from "@/app/api/v1/export/cleanup/runs.csv/route";
import { ctx, makePrincipals } from "@/tests/support/auth";
import type { JobResult } from "@/lib/cleanup/protocol";
import { openCsvStream } from "@/lib/csv/stream";
import { claimJobs, storeJobResult } from "@/lib/services/cleanup-jobs";
import { createRun } from "@/lib/services/cleanup-runs";
import type { Who } from "@/lib/db/queries/audit";
import { getRunDetail } from "@/lib/db/queries/cleanup-views";
import { describeEachDatabase, serveRoutesFrom } from "@/tests/support/db";
import { claudeRoot, seedWorkspace, usage, FLEET_CLAUDE_RUN } from "@/tests/support/cleanup";
import { at, MiB, testNow } from "@/tests/support/reports";
import { cleanupRunExport } from "./cleanup";

const RUN = { ...FLEET_CLAUDE_RUN };
const ADMIN: Who = { actor: { type: "user", id: "u1", label: "admin@example.com" } };
const ODD_PATH = '.claude/projects/a,"b"\nc/1.jsonl';

function result(leaseToken: string, over: Partial<JobResult>): JobResult {
  const now = new Date().toISOString();
  return {
    leaseToken,
    status: "done",
    unitsActed: 0,
    bytesActed: 0,
    units: [],
    skipped: [],
    errors: [],
    logTail: [],
    startedAt: now,
    finishedAt: now,
    ...over,
  };
}

describeEachDatabase("cleanup exports", (t) => {
  let auth: Record<string, string> = {};
  const runs: { trash: string; dry: string } = { trash: "", dry: "" };
  const jobs: Record<string, string> = {};

  const get = async (path: string, handler: typeof runCsv, params: Record<string, string> = {}) =>
    handler(
      new Request(`http://localhost/api/v1/export/cleanup/${path}`, { headers: auth }),
      ctx(params as { id: string }),
    );
  const records = async (res: Response): Promise<Record<string, string>[]> =>
    parse(await res.text(), { columns: true, record_delimiter: "\r\n" });

  beforeAll(async () => {
    const db = t.current.db;
    const when = at(testNow(), 0);
    await seedWorkspace(db, { id: "cl-a", name: '=alpha, "one"', owner: "alice", template: "ai-dev" }, when, [
      claudeRoot(usage({ 60: [3, 200 * MiB] })),
    ]);
    await seedWorkspace(db, { id: "cl-b", owner: "bob" }, when, [claudeRoot(usage({ 90: [4, 400 * MiB] }))]);
    // A trash run: cl-a's reporter did its job (two units, one skipped, one error); cl-b's holds its own.
    runs.trash = (await createRun(db, RUN, ADMIN)).id;
    const [a] = await claimJobs(db, "cl-a");
    jobs.a = a.id;
    await storeJobResult(
      db,
      "cl-a",
      a.id,
      result(a.leaseToken, {
        unitsActed: 2,
        bytesActed: 190 * MiB,
        units: [
          {
            path: ".claude/projects/p/0.jsonl",
            bytes: 100 * MiB,
            action: "trashed",
            trashPath: ".cache/coder-trash/r1/0.jsonl",
          },
          { path: ODD_PATH, bytes: 90 * MiB, action: "trashed", trashPath: ".cache/coder-trash/r1/1.jsonl" },
        ],
        skipped: [{ path: ".claude/projects/p/new.jsonl", bytes: 10, reason: "recent" }],
        errors: [{ path: ".claude/projects/p/locked.jsonl", message: "EACCES: permission denied, open '=x'" }],
      }),
    );
    jobs.b = (await getRunDetail(db, runs.trash))!.jobs.find((j) => j.workspaceId === "cl-b")!.id;
    // A dry run on cl-b only, done: what would have been deleted (cl-b's reporter claims both its jobs).
    runs.dry = (
      await createRun(db, { ...RUN, dryRun: true, action: "delete", scope: { workspaceIds: ["cl-b"] } }, ADMIN)
    ).id;
    const claimed = (await claimJobs(db, "cl-b")).find((j) => j.dryRun)!;
    jobs.dry = claimed.id;
    await storeJobResult(
      db,
      "cl-b",
      claimed.id,
      result(claimed.leaseToken, {
        units: [{ path: ".claude/projects/q/0.jsonl", bytes: 400 * MiB, action: "would-delete" }],
      }),
    );
    serveRoutesFrom(t.current);
    auth = { authorization: `Bearer ${(await makePrincipals(t.current, "cleanup-export")).viewerToken}` };
  });

  it("lists every run newest first, with its request, its jobs per state and what they did", async () => {
    const res = await get("runs.csv", runsCsv);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toMatch(
      /^attachment; filename="cleanup-runs-\d{4}-\d\d-\d\d\.csv"$/,
    );
    const rows = await records(res);
    const created = async (id: string) => (await getRunDetail(t.current.db, id))!.run.createdAt;
    const common = {
      created_by: "admin@example.com",
      kind: "cleanup",
      recipe: "claude-code-sessions",
      custom: "",
      target: "",
      params: '{"olderThanDays":30}',
      trash_days: "7",
      min_age_hours: "24",
      jobs_queued: "0",
      jobs_failed: "0",
      jobs_cancelled: "0",
      jobs_expired: "0",
      jobs_interrupted: "0",
      jobs_lapsed: "0",
      jobs_running: "0",
      preview_estimate: "false",
      workspaces_without_usage: "0",
      policy_id: "",
      source_job_id: "",
      cancelled_at: "",
      cancelled_by: "",
    };
    expect(rows).toEqual([
      {
        ...common,
        id: runs.dry,
        created_at: await created(runs.dry),
        scope: '{"workspaceIds":["cl-b"]}',
        dry_run: "true",
        action: "delete",
        status: "finished",
        jobs: "1",
        jobs_done: "1",
        units_acted: "0",
        bytes_acted: "0",
        // a dry run frees nothing, now or later
        bytes_freed_now: "",
        bytes_freed_later: "",
        preview_units: "4",
        preview_bytes: String(400 * MiB),
      },
      {
        ...common,
        id: runs.trash,
        created_at: await created(runs.trash),
        scope: '{"all":true}',
        dry_run: "false",
        action: "trash",
        status: "running",
        jobs: "2",
        jobs_done: "1",
        jobs_running: "1",
        units_acted: "2",
        bytes_acted: String(190 * MiB),
        // trashed: on the same volume until the trash expires
        bytes_freed_now: "0",
        bytes_freed_later: String(190 * MiB),
        preview_units: "7",
        preview_bytes: String(600 * MiB),
      },
    ]);
  });

  it("writes one row per outcome of each job of a run: units, skips with their reason, errors; a job without any alone", async () => {
    const res = await get(`runs/${runs.trash}.csv`, runCsv, { id: `${runs.trash}.csv` });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="cleanup-run-${runs.trash}.csv"`);
    const text = await res.clone().text();
    const job = (ws: string, name: string, owner: string, id: string, state: string) => ({
      workspace_id: ws,
      workspace: name,
      owner,
      job_id: id,
      job_state: state,
    });
    const none = { path: "", bytes: "", action: "", trash_path: "", message: "" };
    const a = job("cl-a", '\'=alpha, "one"', "alice", jobs.a, "done");
    expect(await records(res)).toEqual([
      { ...job("cl-b", "cl-b", "bob", jobs.b, "running"), ...none },
      {
        ...a,
        ...none,
        path: ".claude/projects/p/0.jsonl",
        bytes: String(100 * MiB),
        action: "trashed",
        trash_path: ".cache/coder-trash/r1/0.jsonl",
      },
      {
        ...a,
        ...none,
        path: ODD_PATH,
        bytes: String(90 * MiB),
        action: "trashed",
        trash_path: ".cache/coder-trash/r1/1.jsonl",
      },
      { ...a, ...none, path: ".claude/projects/p/new.jsonl", bytes: "10", action: "skipped:recent" },
      {
        ...a,
        ...none,
        path: ".claude/projects/p/locked.jsonl",
        action: "error",
        message: "EACCES: permission denied, open '=x'",
      },
    ]);
    // A page of one job and a slice of one outcome at a time: the same file.
    const paged = await cleanupRunExport(t.current.db, runs.trash, { pageSize: 1 });
    expect(await new Response(await openCsvStream(paged)).text()).toBe(text);

    const dry = await records(await get(`runs/${runs.dry}.csv`, runCsv, { id: `${runs.dry}.csv` }));
    expect(dry).toEqual([
      {
        ...job("cl-b", "cl-b", "bob", jobs.dry, "done"),
        ...none,
        path: ".claude/projects/q/0.jsonl",
        bytes: String(400 * MiB),
        action: "would-delete",
      },
    ]);
  });

  it("answers 404 for a run that does not exist or a name that is not <id>.csv, 401 without a caller", async () => {
    const missing = "00000000-0000-4000-8000-000000000000";
    for (const id of [`${missing}.csv`, "nope.csv", runs.trash]) {
      const res = await get(`runs/${id}`, runCsv, { id });
      expect(res.status, id).toBe(404);
      expect((await res.json()).error.code).toBe("not_found");
    }
    const anonymous = await runCsv(
      new Request(`http://localhost/api/v1/export/cleanup/runs/${runs.trash}.csv`),
      ctx({ id: `${runs.trash}.csv` }),
    );
    expect(anonymous.status).toBe(401);
  });
});
