import "server-only";
import { randomUUID } from "node:crypto";
import { authSecret } from "@/lib/auth/server";
import { config, type NotifyConfig } from "@/lib/config";
import type { Db } from "@/lib/db";
import { messageIdOf, sendEmail } from "@/lib/notify/channels/email";
import { postWebhook, webhookBody } from "@/lib/notify/channels/webhook";
import type { Notice, SenderChannel } from "@/lib/notify/types";
import { unsubscribeLink } from "@/lib/notify/unsubscribe";
import { ConflictError, ValidationError } from "@/lib/errors";
import { withTransaction, type ChangeContext } from "./transaction";

// "Send a test" on the Notifications page: one message at once, through the channel's own code (the same SMTP
// transport or the same checked, pinned and signed webhook request), not through the outbox: it neither waits for
// the sender nor counts against the hour's cap, and an admin sees at once what the channel answers.

export type TestOutcome = { channel: SenderChannel; to: string | null; sentAt: string; error: string | null };

/** What a test says: plainly a test, about no real workspace. */
function testNotice(sender: string, now: Date): Notice {
  return {
    kind: "full",
    stateKey: "test",
    level: 0,
    workspace: { id: "test", name: "test-notice", owner: sender },
    figure: "a test from the Notifications page, nothing to do",
    causes: [],
    action: { type: "grow-disk" },
    decidedAt: now.toISOString(),
  };
}

async function deliver(
  db: Db,
  channel: SenderChannel,
  notify: NotifyConfig,
  notice: Notice,
  to: string | null,
  appUrl: string,
  now: Date,
): Promise<void> {
  const id = randomUUID();
  if (channel === "webhook" && notify.webhook) {
    const target = { ...notify.webhook, allowPrivate: notify.allowPrivate };
    await postWebhook(target, webhookBody(notice, id, appUrl, now, true), id);
  } else if (channel === "email" && notify.email && to) {
    const { smtpUrl, from } = notify.email;
    // The same footer as a real email's: the link turns off the optional notices of the test's addressee.
    const unsubscribeUrl = unsubscribeLink(appUrl, await authSecret(db), notice.workspace.owner);
    await sendEmail(smtpUrl, {
      from,
      to,
      notices: [notice],
      messageId: messageIdOf([id], from),
      appUrl,
      unsubscribeUrl,
    });
  }
}

/**
 * Sends one test on `channel` and records it in the audit log, sent or not (with the channel's error). An email
 * goes to the caller's own address (a signed-in user's email; an API token has none: 422). 409 when the channel is
 * not configured. Never throws the channel's error: the outcome carries it.
 */
export async function sendTestNotice(
  ctx: ChangeContext,
  channel: SenderChannel,
  notify: NotifyConfig = config().notify,
  appUrl: string = config().appUrl ?? "",
): Promise<TestOutcome> {
  if (!notify[channel])
    throw new ConflictError(
      channel === "email"
        ? "Email is not configured: set STORAGE_SMTP_URL and STORAGE_NOTIFY_FROM."
        : "The webhook is not configured: set STORAGE_NOTIFY_WEBHOOK_URL.",
    );
  const actor = ctx.who.actor;
  const to = channel === "email" ? (actor.type === "user" ? actor.label : null) : null;
  if (channel === "email" && !to)
    throw new ValidationError("A test email goes to the signed-in user's address: an API token has none.");
  const now = ctx.now ?? new Date();
  let error: string | null = null;
  try {
    await deliver(ctx.db, channel, notify, testNotice(actor.label ?? "an admin", now), to, appUrl, now);
  } catch (err) {
    error = (err as Error).message;
  }
  const outcome: TestOutcome = { channel, to, sentAt: now.toISOString(), error };
  await withTransaction({ ...ctx, now }, ({ audit }) =>
    audit({ action: "notifications.test_sent", target: channel, details: { to, ok: error === null, error } }),
  );
  return outcome;
}
