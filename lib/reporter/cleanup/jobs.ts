// Cleanup jobs, after an ordinary run delivered its report: claim the workspace's jobs, run each under the
// safety rules (execute.ts) while extending its lease, post the result with the lease token, and when
// anything was removed, send a fresh report so the dashboard shows the drop. The local cleanup log is written
// before anything is sent: a server that cannot be reached loses no record.

import fs from "node:fs";
import type { ClaimedJob, JobResult } from "@/lib/cleanup/protocol";
import type { Env } from "../env";
import type { ReporterConfig } from "../scan/roots";
import type { ScannerChoice } from "../scan/scan-roots";
import { NetworkError, request, serverMessage, withRetries, type HttpResult, type RetryPolicy } from "../send/http";
import { refreshLock } from "../state";
import { emptyOutcome, runCleanup, type ExecuteContext, type JobOutcome } from "./execute";
import { CleanupLog } from "./log";
import { readProtect, withKept } from "./protect";
import { JOB_ID_RE, purgeFolder, readManifest, jobTrash, restoreFolder, sweepTrash, trashRoot } from "./trash";
import { truncateLog } from "./truncate";

/** The job kinds this reporter acts on, named in its claim: the dashboard hands out no other (truncate needs it). */
const KNOWN_KINDS: ClaimedJob["kind"][] = ["cleanup", "restore", "purge-trash", "truncate"];

export type JobContext = {
  server: string;
  token: string;
  home: string;
  /** The state folder, whose run lock a long job keeps fresh. */
  state: string;
  env: Env;
  config: ReporterConfig | null;
  log: (line: string) => void;
  retry: RetryPolicy;
  now: () => Date;
  /** Which scanner measures, and the native scanner's path (default: auto, none). */
  scanner?: ScannerChoice;
  /** Builds and sends a new report (after a job removed something). Returns an exit code. */
  sendFreshReport: () => Promise<number>;
  /** Test seam, see ExecuteContext. */
  afterPlan?: ExecuteContext["afterPlan"];
};

/** Each run, before the scan: empties expired trash and finishes what an interrupted job left. */
export function maintainTrash(home: string, now: Date) {
  if (!fs.existsSync(trashRoot(home))) return;
  sweepTrash(home, now, new CleanupLog(home, () => now));
}

/** `lease` goes in a header too, so the dashboard checks it before it reads the body. */
function post(ctx: JobContext, route: string, body: unknown, retry = true, lease?: string): Promise<HttpResult> {
  const send = () =>
    request(`${ctx.server}/api/v1/jobs/${route}`, {
      method: "POST",
      headers: {
        Authorization: `Bearer ${ctx.token}`,
        "Content-Type": "application/json",
        ...(lease && { "X-Lease-Token": lease }),
      },
      body: Buffer.from(JSON.stringify(body)),
    });
  return retry ? withRetries(send, ctx.retry) : send();
}

/** Claims and runs the workspace's jobs. Returns an exit code contribution (0: fine, whatever the jobs did). */
export async function runCleanupJobs(ctx: JobContext): Promise<number> {
  let claimed: HttpResult;
  try {
    claimed = await post(ctx, "claim", { kinds: KNOWN_KINDS });
  } catch (err) {
    if (!(err instanceof NetworkError)) throw err;
    ctx.log(`cannot claim cleanup jobs: ${err.message}`);
    return 0;
  }
  if (claimed.status === 404) return 0; // a dashboard without cleanup
  if (claimed.status !== 200) {
    ctx.log(`cannot claim cleanup jobs: ${serverMessage(claimed)}`);
    return 0;
  }
  const jobs = ((claimed.body as { jobs?: ClaimedJob[] } | null)?.jobs ?? []).filter(
    (j) => j && typeof j.id === "string",
  );
  if (jobs.length === 0) return 0;
  const log = new CleanupLog(ctx.home, ctx.now);
  let removed = false;
  for (const job of jobs) {
    const outcome = await runJob(ctx, job, log);
    ctx.log(
      `job ${job.id} (${job.kind}${job.dryRun ? ", dry run" : ""}): ${outcome.status}, ${outcome.unitsActed} units, ${outcome.bytesActed} bytes, ${outcome.skipped.length} skipped, ${outcome.errors.length} errors`,
    );
    removed ||= !job.dryRun && outcome.units.some((u) => !u.action.startsWith("would-"));
    await sendResult(ctx, job, { ...outcome, leaseToken: job.leaseToken });
  }
  if (removed) {
    const code = await ctx.sendFreshReport();
    if (code !== 0) ctx.log(`the report after cleanup was not delivered now (exit ${code}); it waits in the spool`);
  }
  return 0;
}

async function sendResult(ctx: JobContext, job: ClaimedJob, result: JobResult) {
  try {
    const r = await post(ctx, `${encodeURIComponent(job.id)}/result`, result, true, job.leaseToken);
    if (r.status === 409)
      ctx.log(
        `job ${job.id}: the lease was stale (the job was handed to another run); result dropped, the local log keeps it`,
      );
    else if (r.status !== 200) ctx.log(`job ${job.id}: result refused: ${serverMessage(r)}`);
  } catch (err) {
    if (!(err instanceof NetworkError)) throw err;
    ctx.log(`job ${job.id}: result not delivered (${err.message}); the local log keeps what was done`);
  }
}

/** Extends the lease; true when the job must stop (cancelled, lease taken over, or lease ran out unrenewed). */
function leaseKeeper(ctx: JobContext, job: ClaimedJob, log: CleanupLog): () => Promise<boolean> {
  let expires = Date.parse(job.leaseExpiresAt);
  return async () => {
    refreshLock(ctx.state);
    try {
      const r = await post(ctx, `${encodeURIComponent(job.id)}/progress`, { leaseToken: job.leaseToken }, false);
      if (r.status === 200) {
        const body = r.body as { leaseExpiresAt?: string; cancelled?: boolean } | null;
        if (body?.leaseExpiresAt) expires = Date.parse(body.leaseExpiresAt);
        if (body?.cancelled) log.write(job.id, "cancelled", "", 0, "the dashboard cancelled the job");
        return body?.cancelled === true;
      }
      if (r.status === 409 || r.status === 404) {
        log.write(job.id, "lease-lost", "", 0, serverMessage(r));
        return true;
      }
    } catch (err) {
      if (!(err instanceof NetworkError)) throw err;
    }
    return Number.isFinite(expires) && ctx.now().getTime() >= expires; // unrenewed: stop before it runs out
  };
}

async function runJob(ctx: JobContext, job: ClaimedJob, log: CleanupLog): Promise<JobOutcome> {
  const startedAt = ctx.now().toISOString();
  const empty = emptyOutcome(startedAt);
  log.mark();
  try {
    if (!JOB_ID_RE.test(job.id)) throw new Error(`job id ${JSON.stringify(job.id)} is not usable as a folder name`);
    if (job.kind === "cleanup") {
      const protect = withKept(readProtect(ctx.home), job.keep);
      if (job.keep?.length) log.write(job.id, "protected", "", 0, `kept on the dashboard: ${job.keep.join(", ")}`);
      if (protect.refused) log.write(job.id, "protected", "", 0, `${protect.refused}: the protect file covers all`);
      return await runCleanup(job, {
        home: ctx.home,
        env: ctx.env,
        config: ctx.config,
        scanner: ctx.scanner,
        log,
        now: ctx.now,
        protect,
        progress: leaseKeeper(ctx, job, log),
        afterPlan: ctx.afterPlan,
      });
    }
    let r: Pick<JobOutcome, "units" | "errors"> & { skipped?: JobOutcome["skipped"] };
    if (job.kind === "restore") {
      if (!job.sourceJobId) throw new Error("a restore job needs sourceJobId");
      r = restoreFolder(ctx.home, job.sourceJobId, job.dryRun, log);
    } else if (job.kind === "truncate") {
      r = truncateLog(job, { home: ctx.home, env: ctx.env, config: ctx.config, log });
    } else if (job.kind === "purge-trash") {
      r = purgeTrash(ctx.home, job.sourceJobId, job.dryRun, log);
    } else {
      throw new Error(`unknown job kind ${JSON.stringify(job.kind)}: nothing done`);
    }
    const out = { ...empty, ...r, skipped: r.skipped ?? [] };
    out.unitsActed = out.units.length;
    out.bytesActed = out.units.reduce((s, u) => s + u.bytes, 0);
    out.status = out.errors.length && !out.units.length ? "failed" : "done";
    return { ...out, logTail: log.lines(), finishedAt: ctx.now().toISOString() };
  } catch (err) {
    const message = (err as Error).message.slice(0, 500);
    log.write(job.id, "failed", "", 0, message);
    return {
      ...empty,
      status: "failed",
      errors: [{ path: "", message }],
      logTail: log.lines(),
      finishedAt: ctx.now().toISOString(),
    };
  }
}

/** A purge-trash job: one job's trash, or all of it. A dry run lists what it would purge. */
function purgeTrash(
  home: string,
  jobId: string | null,
  dryRun: boolean,
  log: CleanupLog,
): Pick<JobOutcome, "units" | "errors"> {
  let ids: string[];
  try {
    ids = jobId ? [jobId] : fs.readdirSync(trashRoot(home)).filter((n) => JOB_ID_RE.test(n));
  } catch {
    ids = [];
  }
  const out: Pick<JobOutcome, "units" | "errors"> = { units: [], errors: [] };
  for (const id of ids) {
    if (dryRun) {
      for (const u of readManifest(jobTrash(home, id))?.units ?? [])
        out.units.push({ path: u.path, bytes: u.bytes, action: "purged" });
      continue;
    }
    const r = purgeFolder(home, id, log, "purge job");
    out.units.push(...r.units);
    out.errors.push(...r.errors);
  }
  return out;
}
