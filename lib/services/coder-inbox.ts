import "server-only";
import { config } from "@/lib/config";
import type { Db } from "@/lib/db";
import {
  failInboxRows,
  inboxLeaseOwner,
  leaseInboxRows,
  leasedInboxRows,
  setCoderInbox,
} from "@/lib/db/queries/coder-inbox";
import { kindsTurnedOff } from "@/lib/db/queries/notice-preferences";
import { settle, type Outcome } from "@/lib/db/queries/notifications";
import { processMetrics } from "@/lib/metrics/process";
import { noticeInbox } from "@/lib/notify/render";
import { afterFailure } from "@/lib/notify/schedule";
import {
  CODER_INBOX_HEADER,
  CODER_INBOX_READY,
  type InboxNotice,
  type InboxOutcome,
} from "@/lib/report-format/coder-inbox";

// The owner's Coder Inbox (docs/notifications.md): the workspace's own reporter delivers its owner's notices with
// the owner's session token, which never leaves the workspace. A report's request says whether its run can
// deliver; the answer hands the reporter the workspace's due rows under a lease; the reporter posts back what
// became of each (outcomes). A stopped workspace reports nothing, so its rows wait, and the other channels go on.

/** Rows handed to one report's answer. */
const PER_ANSWER = 10;
/**
 * How long a reporter holds the rows it was handed: longer than its run, so a run that posts its outcomes late
 * (they wait for its next run when the dashboard cannot be reached) is not sent the same notices again meanwhile.
 */
export const INBOX_LEASE_MS = 60 * 60_000;

const NO_LONGER =
  "the workspace's reporter no longer delivers to the Coder Inbox (the module's coder_inbox is off, or its " +
  "reporter has no session token)";

const SKIPPED: Outcome = { status: "skipped", error: "the owner turned this kind of notice off on this channel" };

/**
 * After a report of `workspaceId` was stored: remembers whether its run can deliver to the Coder Inbox, and hands
 * it the notices due. A run that cannot gives up the rows waiting for it (they went by the other channels too).
 */
export async function inboxForReport(
  db: Db,
  workspaceId: string,
  ready: boolean,
  now = new Date(),
  appUrl: string = config().appUrl ?? "",
): Promise<InboxNotice[]> {
  const changed = await setCoderInbox(db, workspaceId, ready);
  if (!ready) {
    // Only a workspace that could deliver before has rows waiting for it.
    const failed = changed ? await failInboxRows(db, workspaceId, NO_LONGER) : 0;
    if (failed) processMetrics().notifications.inc({ channel: "coder-inbox", outcome: "failed" }, failed);
    return [];
  }
  const rows = await leaseInboxRows(db, workspaceId, now, new Date(now.getTime() + INBOX_LEASE_MS), PER_ANSWER);
  if (rows.length === 0) return [];
  const off = await kindsTurnedOff(db, rows[0].owner, "coder-inbox");
  const lease = inboxLeaseOwner(workspaceId);
  const out: InboxNotice[] = [];
  for (const r of rows) {
    if (off.has(r.kind)) {
      await settle(db, r.id, lease, now, SKIPPED);
      processMetrics().notifications.inc({ channel: "coder-inbox", outcome: "skipped" });
    } else out.push({ id: r.id, ...noticeInbox(r.notice, appUrl) });
  }
  return out;
}

/**
 * What the workspace's reporter says became of the notices it was handed: delivered (sent), refused by Coder
 * (failed at once, with Coder's status and message: the same request would be refused again), or Coder unreachable
 * (retried under the outbox's backoff until 24 hours after the notice was queued, then failed). An outcome for a
 * row the workspace does not hold (another's, or settled already) changes nothing. Returns how many were applied.
 */
export async function settleInboxOutcomes(
  db: Db,
  workspaceId: string,
  outcomes: InboxOutcome[],
  now = new Date(),
): Promise<number> {
  const rows = new Map(
    (
      await leasedInboxRows(
        db,
        workspaceId,
        outcomes.map((o) => o.id),
      )
    ).map((r) => [r.id, r]),
  );
  let applied = 0;
  for (const o of outcomes) {
    const row = rows.get(o.id);
    if (!row) continue;
    const outcome: Outcome =
      o.outcome === "delivered"
        ? { status: "sent" }
        : o.outcome === "refused"
          ? { status: "failed", error: `Coder refused it: HTTP ${o.status}: ${o.message}` }
          : afterFailure(row.createdAt, row.attempts, now, `Coder could not be reached: ${o.message}`);
    if (await settle(db, row.id, inboxLeaseOwner(workspaceId), now, outcome)) applied++;
    const counted = outcome.status === "pending" ? "retry" : outcome.status;
    processMetrics().notifications.inc({ channel: "coder-inbox", outcome: counted });
  }
  return applied;
}

/**
 * The notices for a report's answer, from its request's header (lib/report-format/coder-inbox.ts). The report is
 * stored whatever becomes of this: a failure here is logged, and the rows wait for the next report.
 */
export async function inboxAnswer(db: Db, workspaceId: string, request: Request): Promise<InboxNotice[]> {
  const ready = request.headers.get(CODER_INBOX_HEADER) === CODER_INBOX_READY;
  try {
    return await inboxForReport(db, workspaceId, ready);
  } catch (err) {
    console.error(`[notify] the Coder Inbox notices of workspace ${workspaceId}: ${(err as Error).message}`);
    return [];
  }
}
