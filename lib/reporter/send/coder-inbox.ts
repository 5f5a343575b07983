// The owner's Coder Inbox: the notices the dashboard handed this workspace (in the answer to its report) posted to
// Coder as the owner, and what became of each posted back to the dashboard (docs/notifications.md). The owner's
// session token comes from the module's coder_env; it goes to Coder and nowhere else: never to the dashboard,
// never into a log, the spool or a file.

import fs from "node:fs";
import path from "node:path";
import {
  coderContent,
  INBOX_OUTCOME_MESSAGE_MAX,
  INBOX_OUTCOMES_MAX,
  type InboxNotice,
  type InboxOutcome,
} from "@/lib/report-format/coder-inbox";
import type { Env } from "../env";
import { writeAtomic } from "../state";
import { NetworkError, isRetryable, request } from "./http";

/** Where Coder is and the owner's session token. */
export type CoderInbox = { url: string; token: string };

/** Coder's system user that owns a prebuilt workspace until someone claims it: its notices are nobody's. */
const PREBUILDS_OWNER = "prebuilds";

/**
 * Coder's URL and the owner's token from the environment, or null when this workspace cannot deliver: either is
 * missing (an older module, or a template that turned coder_inbox off), or the workspace is a prebuilt one nobody
 * has claimed yet (its token is Coder's prebuilds user's).
 */
export function coderInboxFrom(env: Env): CoderInbox | null {
  const url = env.STORAGE_CODER_URL?.trim().replace(/\/+$/, "") ?? "";
  const token = env.STORAGE_CODER_SESSION_TOKEN?.trim() ?? "";
  if (!/^https?:\/\/\S+$/.test(url) || !token) return null;
  if (env.CODER_WORKSPACE_OWNER_NAME === PREBUILDS_OWNER) return null;
  return { url, token };
}

/** How the run's log names the channel: Coder's address, and the token masked. */
export const describeCoderInbox = (c: CoderInbox) => `Coder Inbox through ${c.url} (session token ********)`;

/** The notices of a report's answer; an older dashboard's answer has none. */
export function inboxNotices(body: unknown): InboxNotice[] {
  const list = (body as { inbox?: unknown } | null)?.inbox;
  if (!Array.isArray(list)) return [];
  return list.filter(
    (n): n is InboxNotice =>
      typeof n === "object" &&
      n !== null &&
      ["id", "title", "text", "link"].every((k) => typeof (n as Record<string, unknown>)[k] === "string"),
  );
}

const short = (s: string) => s.slice(0, INBOX_OUTCOME_MESSAGE_MAX);

/** Coder's message from its error body `{ message, detail }`. */
function coderMessage(body: unknown, status: number): string {
  const b = body as { message?: unknown; detail?: unknown } | null;
  const parts = [b?.message, b?.detail].filter((p): p is string => typeof p === "string" && p !== "");
  return parts.length ? parts.join(": ") : `HTTP ${status}`;
}

/** Posts one notice to Coder as the owner. */
export async function postToCoder(coder: CoderInbox, notice: InboxNotice): Promise<InboxOutcome> {
  try {
    const r = await request(`${coder.url}/api/v2/notifications/custom`, {
      method: "POST",
      headers: { "Coder-Session-Token": coder.token, "Content-Type": "application/json" },
      body: Buffer.from(JSON.stringify({ content: coderContent(notice) })),
      timeoutMs: 20_000,
    });
    if (r.status >= 200 && r.status < 300) return { id: notice.id, outcome: "delivered" };
    const message = short(coderMessage(r.body, r.status));
    if (isRetryable(r.status))
      return { id: notice.id, outcome: "unreachable", message: `HTTP ${r.status}: ${message}` };
    return { id: notice.id, outcome: "refused", status: r.status, message };
  } catch (err) {
    if (err instanceof NetworkError) return { id: notice.id, outcome: "unreachable", message: short(err.message) };
    throw err;
  }
}

/** Outcomes not yet told to the dashboard (it could not be reached): told at the next run. */
const pendingFile = (state: string) => path.join(state, "inbox-outcomes.json");

function readPending(state: string): InboxOutcome[] {
  try {
    const list = JSON.parse(fs.readFileSync(pendingFile(state), "utf8")) as unknown;
    return Array.isArray(list) ? (list as InboxOutcome[]) : [];
  } catch {
    return [];
  }
}

export type InboxRun = {
  server: string;
  /** The workspace's token for the dashboard. */
  token: string;
  state: string;
  log: (s: string) => void;
  verbose: (s: string) => void;
};

/**
 * Tells the dashboard what became of the notices (these and any a previous run could not tell), on its
 * workspace-token endpoint; what it cannot tell now waits in the state folder for the next run. An older
 * dashboard without the endpoint (404) has nothing to be told.
 */
export async function tellOutcomes(run: InboxRun, outcomes: InboxOutcome[]): Promise<void> {
  const all = [...readPending(run.state), ...outcomes].slice(-INBOX_OUTCOMES_MAX);
  if (all.length === 0) return;
  let told = false;
  try {
    const r = await request(`${run.server}/api/v1/inbox/outcomes`, {
      method: "POST",
      headers: { Authorization: `Bearer ${run.token}`, "Content-Type": "application/json" },
      body: Buffer.from(JSON.stringify({ outcomes: all })),
    });
    told = (r.status >= 200 && r.status < 300) || r.status === 404;
    if (!told)
      run.log(`could not tell the dashboard what became of ${all.length} Coder Inbox notice(s): HTTP ${r.status}`);
  } catch (err) {
    if (!(err instanceof NetworkError)) throw err;
    run.log(`could not tell the dashboard what became of ${all.length} Coder Inbox notice(s): ${err.message}`);
  }
  try {
    if (told) fs.rmSync(pendingFile(run.state), { force: true });
    else writeAtomic(pendingFile(run.state), JSON.stringify(all));
  } catch {
    /* a full disk: the dashboard hands the notices out again once their lease ends */
  }
}

/** Delivers the notices to the owner's Coder Inbox, one after another, and tells the dashboard the outcomes. */
export async function deliverToInbox(run: InboxRun, coder: CoderInbox, notices: InboxNotice[]): Promise<void> {
  const outcomes: InboxOutcome[] = [];
  for (const n of notices) {
    const o = await postToCoder(coder, n);
    outcomes.push(o);
    if (o.outcome === "delivered") run.verbose(`Coder Inbox notice ${n.id}: delivered`);
    else if (o.outcome === "refused") run.log(`Coder refused notice ${n.id}: HTTP ${o.status}: ${o.message}`);
    else run.log(`Coder could not be reached for notice ${n.id}: ${o.message}`);
  }
  await tellOutcomes(run, outcomes);
}
