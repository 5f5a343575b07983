import "server-only";
import { config, type NotifyConfig } from "@/lib/config";
import type { Db } from "@/lib/db";
import { workspaceFacts } from "@/lib/db/queries/notification-facts";
import {
  addToOutbox,
  forgetState,
  lockDecisions,
  rememberStates,
  toldStates,
  type NewMessage,
} from "@/lib/db/queries/notifications";
import { changes, currentNotices } from "@/lib/notify/decide";
import { nextDigestAt } from "@/lib/notify/schedule";
import type { Notice, NoticeChannel } from "@/lib/notify/types";
import { notifySettingsInForce } from "./notify-settings";

/** The channels configured now; a notice decided while a channel is off is not sent on it later. */
export function configuredChannels(n: NotifyConfig): NoticeChannel[] {
  return [...(n.email ? (["email"] as const) : []), ...(n.webhook ? (["webhook"] as const) : [])];
}

/**
 * When a message may go: at once, but an email that is not about a full volume waits for the next digest hour
 * (so a channel just configured does not send the fleet's backlog at once).
 */
export function dueAt(channel: NoticeChannel, notice: Notice, now: Date, digestHour: number): Date {
  return channel === "email" && notice.kind !== "full" ? nextDigestAt(now, digestHour) : now;
}

/** Workspaces decided in one transaction: a Coder sync decides for the whole fleet. */
const DECIDE_BATCH = 500;

/**
 * Decides what the owners of `workspaceIds` must hear now and queues it: the states told, the cleared states
 * forgotten and the outbox rows, in one transaction per batch of workspaces (never a report's), so a notice is
 * queued exactly when its state is remembered. Returns how many messages were queued.
 */
export async function decideNotices(
  db: Db,
  workspaceIds: string[],
  now = new Date(),
  notify: NotifyConfig = config().notify,
): Promise<number> {
  let queued = 0;
  for (let i = 0; i < workspaceIds.length; i += DECIDE_BATCH)
    queued += await decideBatch(db, workspaceIds.slice(i, i + DECIDE_BATCH), now, notify);
  return queued;
}

async function decideBatch(db: Db, workspaceIds: string[], now: Date, notify: NotifyConfig): Promise<number> {
  const channels = configuredChannels(notify);
  return db.transaction(async (tx) => {
    await lockDecisions(tx);
    // The thresholds and the digest hour in force: the environment's, else the Notifications page's.
    const settings = await notifySettingsInForce(tx, notify);
    const thresholds = { fillingDays: settings.fillingDays, fullPct: settings.fullPct };
    const told = await toldStates(tx, workspaceIds);
    const messages: NewMessage[] = [];
    for (const facts of await workspaceFacts(tx, workspaceIds)) {
      const c = changes(currentNotices(facts, thresholds, now), told.get(facts.id) ?? []);
      await rememberStates(tx, [...c.send, ...c.keep], now);
      for (const kind of c.clear) await forgetState(tx, facts.id, kind);
      for (const notice of c.send)
        for (const channel of channels)
          messages.push({ channel, notice, nextAttemptAt: dueAt(channel, notice, now, settings.digestHour) });
    }
    await addToOutbox(tx, messages, now);
    return messages.length;
  });
}
