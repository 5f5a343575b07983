import "server-only";
import { config, type NotifyConfig } from "@/lib/config";
import type { Db } from "@/lib/db";
import { coderInboxWorkspaces } from "@/lib/db/queries/coder-inbox";
import { workspaceFacts } from "@/lib/db/queries/notification-facts";
import {
  addToOutbox,
  forgetState,
  lockDecisions,
  rememberStates,
  toldStates,
  type NewMessage,
} from "@/lib/db/queries/notifications";
import { changes, currentNotices, WORKSPACE_KINDS, type Thresholds } from "@/lib/notify/decide";
import { nextDigestAt } from "@/lib/notify/schedule";
import { SENT_AT_ONCE, type Notice, type NoticeChannel, type NoticeKind, type SenderChannel } from "@/lib/notify/types";
import type { NotifySettings } from "@/lib/validations/notify-settings";
import { notifySettingsInForce } from "./notify-settings";

/** The decisions' thresholds among the settings in force (the environment's, else the Notifications page's). */
export const noticeThresholds = (s: NotifySettings): Thresholds => ({
  fillingDays: s.fillingDays,
  fullPct: s.fullPct,
  growingFileBytes: s.growingFileGib * 1024 ** 3,
});

/** The channels configured now; a notice decided while a channel is off is not sent on it later. */
export function configuredChannels(n: NotifyConfig): SenderChannel[] {
  return [...(n.email ? (["email"] as const) : []), ...(n.webhook ? (["webhook"] as const) : [])];
}

/**
 * When a message may go: at once, but an email that is not about a full volume or a cleanup ahead waits for the
 * next digest hour (so a channel just configured does not send the fleet's backlog at once).
 */
export function dueAt(channel: NoticeChannel, notice: Notice, now: Date, digestHour: number): Date {
  return channel === "email" && !SENT_AT_ONCE.includes(notice.kind) ? nextDigestAt(now, digestHour) : now;
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

/** What holds now for one workspace, of the kinds its decider looks at. */
export type Holding = { workspaceId: string; notices: Notice[] };

/**
 * Remembers and queues what changed since the owners were last told, of the kinds `decided`, in the caller's
 * transaction under the decisions' lock. Returns how many messages were queued.
 */
export async function recordDecisions(
  tx: Db,
  holding: Holding[],
  decided: readonly NoticeKind[],
  now: Date,
  notify: NotifyConfig,
): Promise<number> {
  const channels = configuredChannels(notify);
  // The owner's Coder Inbox, where the workspace's reporter can deliver to it; an unclaimed prebuild has no owner.
  const inbox = await coderInboxWorkspaces(
    tx,
    holding.map((h) => h.workspaceId),
  );
  // An email digest waits for the hour in force (the environment's, else the Notifications page's).
  const { digestHour } = await notifySettingsInForce(tx, notify);
  const told = await toldStates(
    tx,
    holding.map((h) => h.workspaceId),
  );
  const messages: NewMessage[] = [];
  for (const h of holding) {
    const c = changes(h.notices, told.get(h.workspaceId) ?? [], decided);
    await rememberStates(tx, [...c.send, ...c.keep], now);
    for (const kind of c.clear) await forgetState(tx, h.workspaceId, kind);
    for (const notice of c.send) {
      for (const channel of channels)
        messages.push({ channel, notice, nextAttemptAt: dueAt(channel, notice, now, digestHour) });
      if (inbox.has(h.workspaceId)) messages.push({ channel: "coder-inbox", notice, nextAttemptAt: now });
    }
  }
  await addToOutbox(tx, messages, now);
  return messages.length;
}

async function decideBatch(db: Db, workspaceIds: string[], now: Date, notify: NotifyConfig): Promise<number> {
  return db.transaction(async (tx) => {
    await lockDecisions(tx);
    const settings = await notifySettingsInForce(tx, notify);
    const thresholds = noticeThresholds(settings);
    const facts = await workspaceFacts(tx, workspaceIds, thresholds.growingFileBytes);
    const holding = facts.map((f) => ({ workspaceId: f.id, notices: currentNotices(f, thresholds, now) }));
    return recordDecisions(tx, holding, WORKSPACE_KINDS, now, notify);
  });
}
