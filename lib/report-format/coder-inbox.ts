// The Coder Inbox channel's wire format, shared by the reporter and the dashboard (docs/notifications.md). The
// workspace's own reporter delivers its owner's notices: it tells the dashboard it can (a header on the report's
// request), the answer to the report carries the notices waiting for it, the reporter posts each to Coder with the
// owner's session token (which never leaves the workspace) and posts back what became of each. No imports: the
// reporter bundles this file.

/**
 * Sent with a report by a reporter that can deliver to Coder's Inbox (Coder's URL set, the owner's session token
 * present, not an unclaimed prebuilt workspace): "ready". A header rather than a field of the report: a spooled
 * report is sent again as it was, while this says what holds for the run that sends it; and a dashboard of the
 * previous release, whose report schema refuses a field it does not know, ignores a header.
 */
export const CODER_INBOX_HEADER = "X-Coder-Inbox";
export const CODER_INBOX_READY = "ready";

/** Coder's limits for a custom notification (codersdk CustomNotificationContent): bytes of UTF-8, not characters. */
export const CODER_TITLE_MAX_BYTES = 120;
export const CODER_MESSAGE_MAX_BYTES = 2000;

/** A notice for the reporter to deliver, in the answer to a report under `inbox` (absent from older dashboards). */
export type InboxNotice = {
  /** The outbox row's id: the outcome names it. */
  id: string;
  title: string;
  /** The message without its link; cut to fit when the whole is too long. */
  text: string;
  /** The workspace's page on the dashboard: kept whole at the message's end. */
  link: string;
};

/**
 * What became of one notice: Coder took it (204), refused it (its status and message: never retried), or could not
 * be reached (a network failure, 429 or 5xx: retried under the outbox's rules).
 */
export type InboxOutcome =
  | { id: string; outcome: "delivered" }
  | { id: string; outcome: "refused"; status: number; message: string }
  | { id: string; outcome: "unreachable"; message: string };

/** The reporter's outcomes, posted to POST /api/v1/inbox/outcomes with the workspace's token. */
export type InboxOutcomes = { outcomes: InboxOutcome[] };
export const INBOX_OUTCOMES_MAX = 100;
export const INBOX_OUTCOME_MESSAGE_MAX = 500;

const ELLIPSIS = "…";
const bytes = (s: string) => new TextEncoder().encode(s).length;

/** `s` cut to at most `max` bytes of UTF-8 between two characters (never inside one), with "…" when it was cut. */
export function cutToBytes(s: string, max: number): string {
  if (bytes(s) <= max) return s;
  const room = max - bytes(ELLIPSIS);
  let out = "";
  let used = 0;
  for (const ch of s) {
    const n = bytes(ch);
    if (used + n > room) break;
    out += ch;
    used += n;
  }
  return out.trimEnd() + ELLIPSIS;
}

/** The title and message Coder accepts: each within its byte limit, the text cut before the link, never the link. */
export function coderContent(n: Pick<InboxNotice, "title" | "text" | "link">): { title: string; message: string } {
  const tail = `\n\n${n.link}`;
  return {
    title: cutToBytes(n.title, CODER_TITLE_MAX_BYTES),
    message: cutToBytes(n.text, CODER_MESSAGE_MAX_BYTES - bytes(tail)) + tail,
  };
}
