import "server-only";
import { randomUUID } from "node:crypto";
import { config, type NotifyConfig } from "@/lib/config";
import type { Db } from "@/lib/db";
import { authSecret } from "@/lib/auth/server";
import { kindsTurnedOff } from "@/lib/db/queries/notice-preferences";
import { claimDue, ownerEmail, settle, type Outcome, type OutboxRow } from "@/lib/db/queries/notifications";
import { processMetrics } from "@/lib/metrics/process";
import { messageIdOf, sendEmail } from "@/lib/notify/channels/email";
import { postWebhook, webhookBody } from "@/lib/notify/channels/webhook";
import { afterFailure } from "@/lib/notify/schedule";
import { SENT_AT_ONCE, type NoticeChannel } from "@/lib/notify/types";
import { unsubscribeLink } from "@/lib/notify/unsubscribe";
import { notifySettingsInForce } from "./notify-settings";

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

/** A send that no retry can mend (no address, a channel turned off): the row fails at once. */
class Undeliverable extends Error {}

/**
 * The rows one message carries: a webhook's, a full volume's or a cleanup ahead's row alone, an owner's other
 * emails together.
 */
function messagesOf(rows: OutboxRow[]): OutboxRow[][] {
  const groups = new Map<string, OutboxRow[]>();
  for (const r of rows) {
    const key = r.channel === "email" && !SENT_AT_ONCE.includes(r.notice.kind) ? `digest:${r.owner}` : r.id;
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  return [...groups.values()];
}

async function deliver(s: Sender, rows: OutboxRow[], now: Date): Promise<void> {
  const [first] = rows;
  if (first.channel === "webhook" && s.notify.webhook) {
    const target = { ...s.notify.webhook, allowPrivate: s.notify.allowPrivate };
    await postWebhook(target, webhookBody(first.notice, first.id, s.appUrl, now), first.id);
  } else if (first.channel === "email" && s.notify.email) {
    const { smtpUrl, from } = s.notify.email;
    const to = await ownerEmail(s.db, first.owner);
    if (!to) throw new Undeliverable(`no email address for ${first.owner} (Coder has none, or only a placeholder)`);
    const ids = rows.map((r) => r.id);
    const notices = rows.map((r) => r.notice);
    const unsubscribeUrl = unsubscribeLink(s.appUrl, await authSecret(s.db), first.owner);
    await sendEmail(smtpUrl, {
      from,
      to,
      notices,
      messageId: messageIdOf(ids, from),
      appUrl: s.appUrl,
      unsubscribeUrl,
    });
  } else throw new Undeliverable(`the ${first.channel} channel is no longer configured`);
}

const outcomeOf = (row: OutboxRow, err: unknown, now: Date): Outcome =>
  err instanceof Undeliverable
    ? { status: "failed", error: err.message }
    : afterFailure(row.createdAt, row.attempts, now, (err as Error).message);

const SKIPPED: Outcome = { status: "skipped", error: "the owner turned this kind of notice off on this channel" };

/** Sends one message's rows but those whose kind its owner turned off on its channel, which are skipped. */
async function sendMessage(s: Sender, message: OutboxRow[], clock: () => Date): Promise<void> {
  const { owner, channel } = message[0];
  const off = await kindsTurnedOff(s.db, owner, channel as NoticeChannel);
  const skipped = message.filter((r) => off.has(r.kind));
  for (const row of skipped) await settle(s.db, row.id, s.id, clock(), SKIPPED);
  if (skipped.length) processMetrics().notifications.inc({ channel, outcome: "skipped" }, skipped.length);
  const rows = message.filter((r) => !off.has(r.kind));
  if (rows.length === 0) return;
  let failure: unknown = null;
  try {
    await deliver(s, rows, clock());
  } catch (err) {
    failure = err;
  }
  for (const row of rows) {
    const outcome: Outcome = failure === null ? { status: "sent" } : outcomeOf(row, failure, clock());
    await settle(s.db, row.id, s.id, clock(), outcome);
  }
  const counted = failure === null ? "sent" : outcomeOf(rows[0], failure, clock()).status;
  processMetrics().notifications.inc({ channel, outcome: counted === "pending" ? "retry" : counted });
}

/** One claim and its sends; returns how many rows it leased (0: none due, or the hour's cap is reached). */
export async function sendDue(s: Sender): Promise<number> {
  const clock = s.clock ?? (() => new Date());
  const rows = await claimDue(s.db, {
    sender: s.id,
    now: clock(),
    leaseMs: LEASE_MS,
    maxPerHour: (await notifySettingsInForce(s.db, s.notify)).maxPerHour,
    limit: BATCH,
  });
  for (const message of messagesOf(rows)) {
    if (s.signal?.aborted) break;
    await sendMessage(s, message, clock);
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
  if (globalForSender.__notificationSender || (!notify.webhook && !notify.email)) return;
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
