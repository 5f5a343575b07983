// Delivery: enrollment, sending reports with retries, and the spool for what cannot be sent now. A spooled
// report keeps its id, so a retry is recognised by the server as a duplicate, never counted twice.

import type { Report } from "@/lib/report/schema";
import type { Configuration } from "./configuration";
import { EXIT } from "./exit-codes";
import { NetworkError, gunzip, request, serverMessage, withRetries, type HttpResult, type RetryPolicy } from "./http";
import { Spool, writeToken } from "./state";

/** One run's delivery: the new report (and its gzipped body) and how to reach the dashboard. */
export type Delivery = Pick<Configuration, "server" | "state" | "token" | "identity" | "enrollmentKey"> & {
  report: Report;
  body: Buffer;
  log: (s: string) => void;
  verbose: (s: string) => void;
  retry: RetryPolicy;
  splayMs: number;
};

type Outcome = "stored" | "rejected" | "unreachable" | "unauthorized";

async function postReport(ctx: Delivery, token: string, body: Buffer): Promise<HttpResult> {
  return withRetries(
    () =>
      request(`${ctx.server}/api/v1/reports`, {
        method: "POST",
        headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json", "Content-Encoding": "gzip" },
        body,
      }),
    ctx.retry,
  );
}

/** Enrolls (or re-enrolls with the current token). Returns the new token, or an exit code. */
async function enroll(ctx: Delivery, current: string | null): Promise<string | number> {
  if (!ctx.enrollmentKey) {
    ctx.log(
      `the workspace token is not valid and STORAGE_ENROLLMENT_KEY is not set: an admin must reset workspace ${ctx.identity.id} and the key must be available`,
    );
    return EXIT.AUTH;
  }
  const headers: Record<string, string> = { "X-Enrollment-Key": ctx.enrollmentKey, "Content-Type": "application/json" };
  if (current) headers.Authorization = `Bearer ${current}`;
  let r: HttpResult;
  try {
    r = await withRetries(
      () =>
        request(`${ctx.server}/api/v1/enroll`, {
          method: "POST",
          headers,
          body: Buffer.from(JSON.stringify({ workspace: ctx.identity })),
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
    writeToken(ctx.state, token);
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

/**
 * Enrolls when there is no token, then sends the spooled reports (oldest first) and the new one. Returns the
 * run's exit code; whatever was not delivered stays in (or goes to) the spool.
 */
export async function deliverAll(ctx: Delivery): Promise<number> {
  const spool = new Spool(ctx.state);
  const spoolNew = (why: string) => {
    const dropped = spool.add(ctx.report.id, ctx.body, Date.parse(ctx.report.collectedAt));
    ctx.log(`report ${ctx.report.id} spooled (${why}); ${spool.list().length} waiting`);
    if (dropped) ctx.log(`spool full: dropped the ${dropped} oldest report(s)`);
  };
  if (ctx.splayMs > 0) await new Promise((r) => setTimeout(r, Math.floor(Math.random() * ctx.splayMs)));

  let token = ctx.token;
  let reenrolled = false;
  if (!token) {
    const t = await enroll(ctx, null);
    if (typeof t === "number") {
      spoolNew(t === EXIT.SPOOLED ? "cannot enroll now" : "not enrolled");
      return t;
    }
    token = t;
  }

  const queue: { id: string; body: () => Buffer; spooled: ReturnType<Spool["list"]>[number] | null }[] = spool
    .list()
    .map((s) => ({ id: s.id, body: () => spool.read(s), spooled: s }));
  queue.push({ id: ctx.report.id, body: () => ctx.body, spooled: null });

  let delivered = 0;
  let newOutcome: Outcome = "stored";
  for (const item of queue) {
    let body: Buffer;
    try {
      body = item.body();
      if (item.spooled) gunzip(body); // a damaged spool file is dropped, not sent forever
    } catch {
      ctx.log(`spooled report ${item.id} is unreadable: dropped`);
      if (item.spooled) spool.remove(item.spooled);
      continue;
    }
    let outcome = await sendOne(ctx, token, item.id, body);
    if (outcome === "unauthorized" && !reenrolled) {
      // After an admin's reset the token is gone on the server: enrolling again (presenting the old token)
      // gets a new one. Without a reset the server answers 409 and an admin has to act.
      reenrolled = true;
      ctx.log("the dashboard does not accept this workspace's token; trying to enroll again");
      const t = await enroll(ctx, token);
      if (typeof t === "number") {
        spoolNew(t === EXIT.SPOOLED ? "cannot enroll now" : "token not valid");
        return t;
      }
      token = t;
      outcome = await sendOne(ctx, token, item.id, body);
    }
    if (outcome === "unauthorized") {
      ctx.log(`the workspace token is not valid: an admin must reset workspace ${ctx.identity.id} in the dashboard`);
      spoolNew("token not valid");
      return EXIT.AUTH;
    }
    if (outcome === "unreachable") {
      spoolNew("dashboard unreachable");
      return EXIT.SPOOLED;
    }
    if (item.spooled) spool.remove(item.spooled);
    if (outcome === "stored") delivered++;
    if (!item.spooled) newOutcome = outcome;
  }
  if (newOutcome === "rejected") return EXIT.REJECTED;
  ctx.log(
    `report ${ctx.report.id} sent: ${ctx.report.roots.length} roots, ${ctx.report.roots.reduce((s, r) => s + r.bytes, 0)} bytes` +
      (delivered > 1 ? `; ${delivered - 1} spooled report(s) delivered too` : ""),
  );
  return EXIT.OK;
}
