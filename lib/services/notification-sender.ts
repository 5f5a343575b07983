import "server-only";
import { randomUUID } from "node:crypto";
import { config, type NotifyConfig } from "@/lib/config";
import type { Db } from "@/lib/db";
import { claimDue, settle, type Outcome, type OutboxRow } from "@/lib/db/queries/notifications";
import { processMetrics } from "@/lib/metrics/process";
import { postWebhook, webhookBody } from "@/lib/notify/channels/webhook";
import { afterFailure } from "@/lib/notify/schedule";

// Sends what the outbox holds (lib/db/schema/notifications.ts): leases due rows, sends each, and records what
// became of it. At least once: a row is settled only after its send, so a crash between the two sends it again
// (with the same delivery id) once the lease ends; nothing else repeats one.

/** Rows one claim leases; sent one after another, each within the channel's timeout (30 s). */
const BATCH = 10;
/** Longer than a batch's sends can take: a lease ends before its sender is done only if that sender died. */
export const LEASE_MS = 10 * 60_000;

export type Sender = {
  db: Db;
  /** This sender's name in the leases (one per process). */
  id: string;
  notify: NotifyConfig;
  appUrl: string;
  clock?: () => Date;
  /** Aborted: no new send starts; rows leased and not sent wait for their lease to end (as after a crash). */
  signal?: AbortSignal;
};

async function deliver(s: Sender, row: OutboxRow, now: Date): Promise<void> {
  if (row.channel === "webhook" && s.notify.webhook) {
    const target = { ...s.notify.webhook, allowPrivate: s.notify.allowPrivate };
    await postWebhook(target, webhookBody(row.notice, row.id, s.appUrl, now), row.id);
    return;
  }
  throw new Error(`the ${row.channel} channel is no longer configured`);
}

/** One claim and its sends; returns how many rows it leased (0: none due, or the hour's cap is reached). */
export async function sendDue(s: Sender): Promise<number> {
  const clock = s.clock ?? (() => new Date());
  const rows = await claimDue(s.db, {
    sender: s.id,
    now: clock(),
    leaseMs: LEASE_MS,
    maxPerHour: s.notify.maxPerHour,
    limit: BATCH,
  });
  for (const row of rows) {
    if (s.signal?.aborted) break;
    let outcome: Outcome;
    try {
      await deliver(s, row, clock());
      outcome = { status: "sent" };
    } catch (err) {
      outcome = afterFailure(row.createdAt, row.attempts, clock(), (err as Error).message);
    }
    await settle(s.db, row.id, s.id, clock(), outcome);
    const counted = outcome.status === "pending" ? "retry" : outcome.status;
    processMetrics().notifications.inc({ channel: row.channel, outcome: counted });
  }
  return rows.length;
}

/** Sends until nothing is due (or the cap holds the rest back). */
export async function sendAllDue(s: Sender): Promise<void> {
  while (!s.signal?.aborted && (await sendDue(s)) === BATCH);
}

const globalForSender = globalThis as unknown as { __notificationSender?: ReturnType<typeof setInterval> };
const TICK_MS = 15_000;

/** Started once per server process from instrumentation.ts when a channel is configured. */
export function startNotificationSender(getDb: () => Promise<Db>): void {
  const { notify, appUrl } = config();
  if (globalForSender.__notificationSender || !notify.webhook) return;
  const id = `sender-${randomUUID()}`;
  let running = false;
  const tick = async () => {
    if (running) return;
    running = true;
    try {
      await sendAllDue({ db: await getDb(), id, notify, appUrl: appUrl ?? "" });
    } catch (err) {
      console.error(`[notify] sending failed: ${(err as Error).message}`);
    } finally {
      running = false;
    }
  };
  globalForSender.__notificationSender = setInterval(tick, TICK_MS);
  globalForSender.__notificationSender.unref?.();
}
