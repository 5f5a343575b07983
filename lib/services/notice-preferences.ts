import "server-only";
import type { Caller } from "@/lib/auth/caller";
import { authSecret } from "@/lib/auth/server";
import type { Who } from "@/lib/db/queries/audit";
import {
  coderUsernameOf,
  preferenceRows,
  savePreferences,
  type PreferenceRow,
} from "@/lib/db/queries/notice-preferences";
import { ownerHasCoderInbox } from "@/lib/db/queries/coder-inbox";
import type { Db } from "@/lib/db/types";
import { ConflictError, ForbiddenError } from "@/lib/errors";
import { ALWAYS_SENT, NOTICE_CHANNELS, OPTIONAL_KINDS, type OptionalKind } from "@/lib/notify/types";
import { isUnsubscribeSignature } from "@/lib/notify/unsubscribe";
import type { KindSwitches, NoticePreferences, NoticePreferencesChange } from "@/lib/validations/notifications";
import { withTransaction } from "./transaction";

// What an owner hears: the optional kinds on or off per channel, changed by the owner signed in (the My storage
// page) or by the one-click unsubscribe link of an email (docs/notifications.md). Every change is audited.

const allOn = (): KindSwitches => Object.fromEntries(OPTIONAL_KINDS.map((k) => [k, true])) as KindSwitches;

/** An owner's switches: every optional kind on unless turned off. */
export async function noticePreferences(db: Db, owner: string): Promise<NoticePreferences> {
  const channels = { email: allOn(), webhook: allOn(), "coder-inbox": allOn() };
  const [rows, coderInbox] = await Promise.all([preferenceRows(db, owner), ownerHasCoderInbox(db, owner)]);
  for (const r of rows) channels[r.channel][r.kind] = r.enabled;
  return { owner, channels, coderInbox, alwaysSent: [...ALWAYS_SENT] };
}

/** The Coder username whose notices the caller gets; 409 for a user the dashboard knows no Coder name of. */
export async function callerOwner(db: Db, caller: Caller): Promise<string> {
  const owner = await coderUsernameOf(db, caller.kind === "user" ? caller.id : caller.ownerId);
  if (!owner)
    throw new ConflictError("This user has no Coder username: notices go to workspace owners, by Coder username.");
  return owner;
}

const rowsOfChange = (change: NoticePreferencesChange): PreferenceRow[] =>
  NOTICE_CHANNELS.flatMap((channel) =>
    Object.entries(change.channels[channel] ?? {}).map(([kind, enabled]) => ({
      channel,
      kind: kind as OptionalKind,
      enabled: enabled as boolean,
    })),
  );

/** Sets the switches `change` names, for `owner`, with its audit entry. */
export async function updateNoticePreferences(
  db: Db,
  owner: string,
  change: NoticePreferencesChange,
  who: Who,
): Promise<NoticePreferences> {
  const rows = rowsOfChange(change);
  // Nothing named, nothing changed: no audit entry.
  if (rows.length)
    await withTransaction({ db, who }, async ({ tx, now, audit }) => {
      await savePreferences(tx, owner, rows, now);
      await audit({ action: "notifications.preferences_changed", target: owner, details: { changes: rows } });
    });
  return noticePreferences(db, owner);
}

/** Whether `sig` signs the unsubscribe link of `owner`. */
export async function isOwnersLink(db: Db, owner: string, sig: string): Promise<boolean> {
  return isUnsubscribeSignature(await authSecret(db), owner, sig);
}

/**
 * The one-click unsubscribe (RFC 8058): turns every optional kind off on email for the owner the link was signed
 * for; a link that is not signed for it (403) changes nothing. Full and cleanup ahead still go.
 */
export async function unsubscribeByLink(db: Db, owner: string, sig: string, who: Who): Promise<NoticePreferences> {
  if (!(await isOwnersLink(db, owner, sig))) throw new ForbiddenError("This unsubscribe link is not valid.");
  const rows = OPTIONAL_KINDS.map((kind) => ({ channel: "email" as const, kind, enabled: false }));
  await withTransaction({ db, who }, async ({ tx, now, audit }) => {
    await savePreferences(tx, owner, rows, now);
    await audit({
      action: "notifications.unsubscribed",
      target: owner,
      details: { channel: "email", kinds: OPTIONAL_KINDS },
    });
  });
  return noticePreferences(db, owner);
}
