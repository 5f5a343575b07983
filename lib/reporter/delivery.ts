// Delivery: enrollment, sending reports with retries, and the spool for what cannot be sent now. A spooled
// report keeps its id, so a retry is recognised by the server as a duplicate, never counted twice. A backlog
// goes in batches (POST /api/v1/reports/batch), each report acknowledged on its own.

import { LIMITS } from "@/lib/report-format/constants";
import type { Report, ReportBatchResponse } from "@/lib/report-format/schema";
import type { Configuration } from "./configuration";
import { EXIT } from "./exit-codes";
import {
  NetworkError,
  gunzip,
  gzip,
  request,
  serverMessage,
  withRetries,
  type HttpResult,
  type RetryPolicy,
} from "./http";
import { Spool, enrollmentClaim, forgetClaim, isDiskFull, writeToken, type SpooledReport } from "./state";

/** One run's delivery: the new report (and its gzipped body) and how to reach the dashboard. */
export type Delivery = Pick<Configuration, "server" | "state" | "token" | "identity" | "enrollmentKey"> & {
  report: Report;
  body: Buffer;
  log: (s: string) => void;
  verbose: (s: string) => void;
  retry: RetryPolicy;
  splayMs: number;
  /** Told of each report the dashboard acknowledged (stored now or before), e.g. by a load test. */
  acknowledged?: (id: string) => void;
};

type Outcome = "stored" | "rejected" | "unreachable" | "unauthorized";

async function postReport(ctx: Delivery, token: string, body: Buffer, path = "/api/v1/reports"): Promise<HttpResult> {
  return withRetries(
    () =>
      request(`${ctx.server}${path}`, {
        method: "POST",
        headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json", "Content-Encoding": "gzip" },
        body,
      }),
    ctx.retry,
  );
}

/** Writes the token; on a full disk the oldest spooled reports make room for it (it matters more than any). */
function keepToken(ctx: Delivery, token: string) {
  const spool = new Spool(ctx.state);
  let dropped = 0;
  for (;;) {
    try {
      writeToken(ctx.state, token);
      break;
    } catch (err) {
      if (!isDiskFull(err) || !spool.dropOldest()) throw err;
      dropped++;
    }
  }
  if (dropped) ctx.log(`disk full: dropped the ${dropped} oldest spooled report(s) to keep the workspace token`);
}

/**
 * Enrolls (or re-enrolls with the current token), with the claim kept from an earlier try whose answer never
 * came. Returns the new token, or an exit code.
 */
async function enroll(ctx: Delivery, current: string | null): Promise<string | number> {
  if (!ctx.enrollmentKey) {
    ctx.log(
      `the workspace token is not valid and STORAGE_ENROLLMENT_KEY is not set: an admin must reset workspace ${ctx.identity.id} and the key must be available`,
    );
    return EXIT.AUTH;
  }
  const headers: Record<string, string> = { "X-Enrollment-Key": ctx.enrollmentKey, "Content-Type": "application/json" };
  if (current) headers.Authorization = `Bearer ${current}`;
  const claim = enrollmentClaim(ctx.state);
  let r: HttpResult;
  try {
    r = await withRetries(
      () =>
        request(`${ctx.server}/api/v1/enroll`, {
          method: "POST",
          headers,
          body: Buffer.from(JSON.stringify({ workspace: ctx.identity, ...(claim ? { claim } : {}) })),
        }),
      ctx.retry,
    );
  } catch (err) {
    if (err instanceof NetworkError) return EXIT.SPOOLED;
    throw err;
  }
  if (r.status === 200) {
    const token = (r.body as { token?: unknown } | null)?.token;
    if (typeof token !== "string" || !token) {
      ctx.log("enrollment answered without a token");
      return EXIT.SPOOLED;
    }
    keepToken(ctx, token);
    forgetClaim(ctx.state);
    ctx.log(`enrolled workspace ${ctx.identity.id}`);
    return token;
  }
  if (r.status === 429 || r.status >= 500) return EXIT.SPOOLED;
  if (r.status === 401) {
    ctx.log(`enrollment refused: the enrollment key is wrong (${serverMessage(r)})`);
    return EXIT.AUTH;
  }
  if (r.status === 409) {
    ctx.log(
      `workspace ${ctx.identity.id} is already enrolled and this workspace's token is ${current ? "no longer valid" : "missing"}: ` +
        `an admin must reset the workspace in the dashboard (${serverMessage(r)})`,
    );
    return EXIT.AUTH;
  }
  ctx.log(`enrollment refused: ${serverMessage(r)}`);
  return EXIT.AUTH;
}

async function sendOne(ctx: Delivery, token: string, id: string, body: Buffer): Promise<Outcome> {
  let r: HttpResult;
  try {
    r = await postReport(ctx, token, body);
  } catch (err) {
    if (err instanceof NetworkError) {
      ctx.log(`cannot reach the dashboard: ${err.message}`);
      return "unreachable";
    }
    throw err;
  }
  if (r.status === 200) {
    const status = (r.body as { status?: string } | null)?.status ?? "stored";
    ctx.verbose(`report ${id}: ${status}`);
    ctx.acknowledged?.(id);
    return "stored";
  }
  if (r.status === 429 || r.status >= 500) {
    ctx.log(`the dashboard is not accepting reports now: ${serverMessage(r)}`);
    return "unreachable";
  }
  if (r.status === 401) return "unauthorized";
  ctx.log(`report ${id} rejected and dropped: HTTP ${r.status}: ${serverMessage(r)}`);
  return "rejected";
}

/** A report on its way: its gzipped body, its JSON (for a batch), and its spool file if it waited there. */
type Item = { id: string; body: Buffer; json: string; spooled: SpooledReport | null };

/** Spooled reports (oldest first) then the new one; a spool file that cannot be read back is dropped, said so. */
function readQueue(ctx: Delivery, spool: Spool): Item[] {
  const items: Item[] = [];
  for (const s of spool.list()) {
    try {
      const body = spool.read(s);
      const json = gunzip(body).toString("utf8");
      const id = (JSON.parse(json) as { id?: unknown } | null)?.id;
      if (id !== s.id) throw new Error(`holds report ${String(id)}`);
      items.push({ id: s.id, body, json, spooled: s });
    } catch (err) {
      // Truncated by a full disk or a crash, or damaged: sending it would fail forever.
      ctx.log(`spooled report ${s.id} is unreadable (${(err as Error).message}): dropped, the others are sent`);
      spool.remove(s);
    }
  }
  items.push({ id: ctx.report.id, body: ctx.body, json: JSON.stringify(ctx.report), spooled: null });
  return items;
}

/** Consecutive items in batches of at most LIMITS.reportBatchSize reports and the batch body's byte limit. */
function batches(items: Item[]): Item[][] {
  const out: Item[][] = [];
  let size = 0;
  for (const item of items) {
    const last = out.at(-1);
    const bytes = Buffer.byteLength(item.json) + 1;
    if (!last || last.length >= LIMITS.reportBatchSize || size + bytes > LIMITS.reportBatchBodyBytes - 64) {
      out.push([item]);
      size = 0;
    } else last.push(item);
    size += bytes;
  }
  return out;
}

type BatchOutcome = { per: ("stored" | "rejected" | "retry")[] } | "unreachable" | "unauthorized" | "single";

/** One batch request. "single": the dashboard has no batch endpoint (or refused the batch whole): send one by one. */
async function sendBatch(ctx: Delivery, token: string, batch: Item[]): Promise<BatchOutcome> {
  let r: HttpResult;
  try {
    r = await postReport(
      ctx,
      token,
      gzip(`{"reports":[${batch.map((i) => i.json).join(",")}]}`),
      "/api/v1/reports/batch",
    );
  } catch (err) {
    if (err instanceof NetworkError) {
      ctx.log(`cannot reach the dashboard: ${err.message}`);
      return "unreachable";
    }
    throw err;
  }
  if (r.status === 429 || r.status >= 500) {
    ctx.log(`the dashboard is not accepting reports now: ${serverMessage(r)}`);
    return "unreachable";
  }
  if (r.status === 401) return "unauthorized";
  const results = (r.body as Partial<ReportBatchResponse> | null)?.results;
  if (r.status !== 200 || !Array.isArray(results) || results.length !== batch.length) return "single";
  return {
    per: results.map((res, i) => {
      const id = batch[i].id;
      if (res.status === "stored" || res.status === "duplicate") {
        ctx.verbose(`report ${id}: ${res.status}`);
        ctx.acknowledged?.(id);
        return "stored";
      }
      if (res.status === "rejected") {
        ctx.log(`report ${id} rejected and dropped: ${res.error.message} (${res.error.code})`);
        return "rejected";
      }
      return "retry";
    }),
  };
}

/**
 * Enrolls when there is no token, then sends the spooled reports (oldest first) and the new one: a single report
 * alone, a backlog in batches. Returns the run's exit code; whatever was not delivered stays in (or goes to) the
 * spool.
 */
export async function deliverAll(ctx: Delivery): Promise<number> {
  const spool = new Spool(ctx.state);
  let newSettled = false; // the new report was delivered or refused: never spooled then
  const spoolNew = (why: string) => {
    if (newSettled) return;
    const { dropped, lost } = spool.add(ctx.report.id, ctx.body, Date.parse(ctx.report.collectedAt));
    if (lost) ctx.log(`disk full: report ${ctx.report.id} could not be spooled and is lost (${why})`);
    else ctx.log(`report ${ctx.report.id} spooled (${why}); ${spool.list().length} waiting`);
    if (dropped.full) ctx.log(`disk full: dropped the ${dropped.full} oldest spooled report(s) to keep the newest`);
    if (dropped.bounds) ctx.log(`spool full: dropped the ${dropped.bounds} oldest report(s)`);
  };
  if (ctx.splayMs > 0) await new Promise((r) => setTimeout(r, Math.floor(Math.random() * ctx.splayMs)));

  let token = ctx.token;
  if (!token) {
    const t = await enroll(ctx, null);
    if (typeof t === "number") {
      spoolNew(t === EXIT.SPOOLED ? "cannot enroll now" : "not enrolled");
      return t;
    }
    token = t;
  }

  let reenrolled = false;
  // After an admin's reset the token is gone on the server: enrolling again (presenting the old token) gets a new
  // one. Without a reset the server answers 409 and an admin has to act. Returns an exit code when it cannot.
  const reenroll = async (): Promise<number | null> => {
    if (reenrolled) {
      ctx.log(`the workspace token is not valid: an admin must reset workspace ${ctx.identity.id} in the dashboard`);
      spoolNew("token not valid");
      return EXIT.AUTH;
    }
    reenrolled = true;
    ctx.log("the dashboard does not accept this workspace's token; trying to enroll again");
    const t = await enroll(ctx, token);
    if (typeof t === "number") {
      spoolNew(t === EXIT.SPOOLED ? "cannot enroll now" : "token not valid");
      return t;
    }
    token = t;
    return null;
  };

  let delivered = 0;
  let newOutcome = "stored" as Outcome;
  const settle = (item: Item, outcome: "stored" | "rejected") => {
    if (item.spooled) spool.remove(item.spooled);
    else [newOutcome, newSettled] = [outcome, true];
    if (outcome === "stored") delivered++;
  };
  const sendSingly = async (items: Item[]): Promise<number | null> => {
    for (const item of items) {
      let outcome = await sendOne(ctx, token!, item.id, item.body);
      if (outcome === "unauthorized") {
        const code = await reenroll();
        if (code !== null) return code;
        outcome = await sendOne(ctx, token!, item.id, item.body);
      }
      if (outcome === "unauthorized") return reenroll();
      if (outcome === "unreachable") {
        spoolNew("dashboard unreachable");
        return EXIT.SPOOLED;
      }
      settle(item, outcome);
    }
    return null;
  };

  const queue = readQueue(ctx, spool);
  for (const batch of queue.length > 1 ? batches(queue) : [queue]) {
    let outcome: BatchOutcome = batch.length > 1 ? await sendBatch(ctx, token, batch) : "single";
    if (outcome === "unauthorized") {
      const code = await reenroll();
      if (code !== null) return code;
      outcome = await sendBatch(ctx, token, batch);
    }
    if (outcome === "unauthorized") return (await reenroll())!;
    if (outcome === "unreachable") {
      spoolNew("dashboard unreachable");
      return EXIT.SPOOLED;
    }
    if (outcome === "single") {
      const code = await sendSingly(batch);
      if (code !== null) return code;
      continue;
    }
    const per = outcome.per;
    batch.forEach((item, i) => per[i] !== "retry" && settle(item, per[i] as "stored" | "rejected"));
    if (per.includes("retry")) {
      spoolNew("not stored now");
      ctx.log("the dashboard could not store every report now; the rest wait in the spool");
      return EXIT.SPOOLED;
    }
  }
  if (newOutcome === "rejected") return EXIT.REJECTED;
  ctx.log(
    `report ${ctx.report.id} sent: ${ctx.report.roots.length} roots, ${ctx.report.roots.reduce((s, r) => s + r.bytes, 0)} bytes` +
      (delivered > 1 ? `; ${delivered - 1} spooled report(s) delivered too` : ""),
  );
  return EXIT.OK;
}
