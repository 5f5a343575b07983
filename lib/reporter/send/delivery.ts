// Delivery: enrollment, sending reports with retries, and the spool for what cannot be sent now. A spooled
// report keeps its id, so a retry is recognised by the server as a duplicate, never counted twice. A backlog
// goes in batches (POST /api/v1/reports/batch), each report acknowledged on its own.

import { EXIT } from "../exit-codes";
import { Spool } from "../state";
import type { Delivery } from "./context";
import { enroll } from "./enroll";
import { sendBatch, sendOne, type BatchOutcome, type Outcome } from "./post-reports";
import { batches, readQueue, type Item } from "./queue";

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
