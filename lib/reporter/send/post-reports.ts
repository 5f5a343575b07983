// The requests that send reports: one report, or a batch whose reports the dashboard acknowledges each on its
// own; each answer read into what the run does next.

import { CODER_INBOX_HEADER, CODER_INBOX_READY } from "@/lib/report-format/coder-inbox";
import type { ReportBatchResponse } from "@/lib/report-format/schema";
import { inboxNotices } from "./coder-inbox";
import type { Delivery } from "./context";
import { NetworkError, gzip, request, serverMessage, withRetries, type HttpResult } from "./http";
import type { Item } from "./queue";

/** What became of a report sent on its own. */
export type Outcome = "stored" | "rejected" | "unreachable" | "unauthorized";

async function postReport(ctx: Delivery, token: string, body: Buffer, path = "/api/v1/reports"): Promise<HttpResult> {
  return withRetries(
    () =>
      request(`${ctx.server}${path}`, {
        method: "POST",
        headers: {
          Authorization: `Bearer ${token}`,
          "Content-Type": "application/json",
          "Content-Encoding": "gzip",
          ...(ctx.coderInboxReady && { [CODER_INBOX_HEADER]: CODER_INBOX_READY }),
        },
        body,
      }),
    ctx.retry,
  );
}

/** Sends one report. */
export async function sendOne(ctx: Delivery, token: string, id: string, body: Buffer): Promise<Outcome> {
  let r: HttpResult;
  try {
    r = await postReport(ctx, token, body);
  } catch (err) {
    if (err instanceof NetworkError) {
      ctx.log(`cannot reach the dashboard: ${err.message}`);
      return "unreachable";
    }
    throw err;
  }
  if (r.status === 200) {
    const status = (r.body as { status?: string } | null)?.status ?? "stored";
    ctx.verbose(`report ${id}: ${status}`);
    ctx.acknowledged?.(id);
    ctx.inbox?.(inboxNotices(r.body));
    return "stored";
  }
  if (r.status === 429 || r.status >= 500) {
    ctx.log(`the dashboard is not accepting reports now: ${serverMessage(r)}`);
    return "unreachable";
  }
  if (r.status === 401) return "unauthorized";
  ctx.log(`report ${id} rejected and dropped: HTTP ${r.status}: ${serverMessage(r)}`);
  return "rejected";
}

export type BatchOutcome = { per: ("stored" | "rejected" | "retry")[] } | "unreachable" | "unauthorized" | "single";

/** One batch request. "single": the dashboard has no batch endpoint (or refused the batch whole): send one by one. */
export async function sendBatch(ctx: Delivery, token: string, batch: Item[]): Promise<BatchOutcome> {
  let r: HttpResult;
  try {
    r = await postReport(
      ctx,
      token,
      gzip(`{"reports":[${batch.map((i) => i.json).join(",")}]}`),
      "/api/v1/reports/batch",
    );
  } catch (err) {
    if (err instanceof NetworkError) {
      ctx.log(`cannot reach the dashboard: ${err.message}`);
      return "unreachable";
    }
    throw err;
  }
  if (r.status === 429 || r.status >= 500) {
    ctx.log(`the dashboard is not accepting reports now: ${serverMessage(r)}`);
    return "unreachable";
  }
  if (r.status === 401) return "unauthorized";
  const results = (r.body as Partial<ReportBatchResponse> | null)?.results;
  if (r.status !== 200 || !Array.isArray(results) || results.length !== batch.length) return "single";
  ctx.inbox?.(inboxNotices(r.body));
  return {
    per: results.map((res, i) => {
      const id = batch[i].id;
      if (res.status === "stored" || res.status === "duplicate") {
        ctx.verbose(`report ${id}: ${res.status}`);
        ctx.acknowledged?.(id);
        return "stored";
      }
      if (res.status === "rejected") {
        ctx.log(`report ${id} rejected and dropped: ${res.error.message} (${res.error.code})`);
        return "rejected";
      }
      return "retry";
    }),
  };
}
