// Coder's custom notification endpoint, as Coder's source has it (v2.27+): POST /api/v2/notifications/custom with
// `{"content": {"title", "message"}}` queues a notice for the caller alone (its Inbox and the caller's own
// channels) and answers 204. Its rules (codersdk/notifications.go CustomNotificationContent.Validate, coderd's
// handler and its tests):
// - a session token (Coder-Session-Token, or Authorization: Bearer), else 401 with httpmw's signed-out message;
// - a body that is not JSON: 400 "Request body must be valid JSON." (httpapi.Read);
// - no content, an empty title or message after trimming, a title over 120 bytes or a message over 2000 bytes
//   (Go's len(), bytes of UTF-8, not characters): 400 "Invalid request body" with the rule in `detail`;
// - a system user (the prebuilds user, owner of unclaimed prebuilt workspaces): 403 "Forbidden".
// The stand-in records every notice it queued, per user, for the tests to read.
import type http from "node:http";
import { readBody, sendCoderError, type CoderHandler } from "./server";

const SIGNED_OUT = "You are signed out or your session has expired. Please sign in again to continue.";
const MAX_TITLE_BYTES = 120;
const MAX_MESSAGE_BYTES = 2000;

/** A queued notice: whose token sent it, and what it said. */
export type CustomNotification = { user: string; title: string; message: string };

export type CoderNotifications = {
  handler: CoderHandler;
  /** Session tokens and the user each belongs to; `system: true` for Coder's system users (prebuilds). */
  tokens: Map<string, { user: string; system?: boolean }>;
  /** What was queued, in order. */
  sent: CustomNotification[];
  /** Every request, answered or not: status and the headers the caller sent (to check none leaks a secret). */
  requests: { status: number; headers: http.IncomingHttpHeaders; body: string }[];
};

function sessionToken(req: http.IncomingMessage): string | null {
  const header = req.headers["coder-session-token"];
  if (typeof header === "string" && header) return header;
  const auth = /^Bearer (.+)$/i.exec(req.headers.authorization ?? "");
  return auth ? auth[1] : null;
}

/** Codersdk's Validate: null when the content is acceptable, else its error text. */
function invalid(body: unknown): string | null {
  const content = (body as { content?: unknown } | null)?.content;
  if (content === undefined || content === null) return "content is required";
  const { title, message } = content as { title?: unknown; message?: unknown };
  const t = typeof title === "string" ? title : "";
  const m = typeof message === "string" ? message : "";
  if (t.trim() === "" || m.trim() === "") return "provide a non-empty 'content.title' and 'content.message'";
  if (Buffer.byteLength(t, "utf8") > MAX_TITLE_BYTES)
    return `'content.title' must be less than ${MAX_TITLE_BYTES} characters`;
  if (Buffer.byteLength(m, "utf8") > MAX_MESSAGE_BYTES)
    return `'content.message' must be less than ${MAX_MESSAGE_BYTES} characters`;
  return null;
}

export function coderNotifications(): CoderNotifications {
  const tokens = new Map<string, { user: string; system?: boolean }>();
  const sent: CustomNotification[] = [];
  const requests: CoderNotifications["requests"] = [];
  const handler: CoderHandler = async (req, res, url) => {
    if (url.pathname !== "/api/v2/notifications/custom" || req.method !== "POST") return false;
    const raw = await readBody(req);
    const answer = (status: number, message?: string, detail?: string) => {
      requests.push({ status, headers: req.headers, body: raw });
      if (message === undefined) res.writeHead(status).end();
      else sendCoderError(res, status, message, detail);
    };
    const token = sessionToken(req);
    if (!token)
      return (answer(401, SIGNED_OUT, `Cookie "coder_session_token" or query parameter must be provided.`), true);
    const user = tokens.get(token);
    if (!user) return (answer(401, SIGNED_OUT, "API key is invalid."), true);
    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch (err) {
      return (answer(400, "Request body must be valid JSON.", (err as Error).message), true);
    }
    const problem = invalid(body);
    if (problem) return (answer(400, "Invalid request body", problem), true);
    if (user.system) return (answer(403, "Forbidden", "System users cannot send custom notifications."), true);
    const { title, message } = (body as { content: { title: string; message: string } }).content;
    sent.push({ user: user.user, title, message });
    answer(204);
    return true;
  };
  return { handler, tokens, sent, requests };
}
