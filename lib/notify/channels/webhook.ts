import "server-only";
import { createHmac } from "node:crypto";
import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { noticeMarkdown, workspaceLink } from "../render";
import type { Notice } from "../types";
import { checkedAddress, type Resolved } from "./address";

// One JSON POST per notice: `text` in Markdown (Slack's and Mattermost's incoming webhooks show it as it is), the
// structured fields beside it, the delivery id in a header, and with a secret an HMAC-SHA256 of the raw body, which
// holds the time it was signed so that a receiver can refuse a replay.

export type WebhookTarget = { url: string; secret: string | null; allowPrivate: boolean };

/** No answer within this is a failed send, retried later. */
const TIMEOUT_MS = 30_000;

export const signature = (secret: string, body: string) =>
  `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;

/** `test`: a test an admin sent from the Notifications page (the receiver may drop it). */
export function webhookBody(n: Notice, deliveryId: string, appUrl: string, now: Date, test = false): string {
  return JSON.stringify({
    ...(test ? { test: true } : {}),
    text: noticeMarkdown(n, appUrl),
    deliveryId,
    timestamp: now.toISOString(),
    kind: n.kind,
    workspace: n.workspace,
    figure: n.figure,
    causes: n.causes,
    action: n.action,
    link: workspaceLink(appUrl, n.workspace.id),
  });
}

/** Connects to the address that was checked, whatever the name resolves to by then. */
const pinned =
  (r: Resolved): LookupFunction =>
  (_host, options, callback) => {
    if (options.all) callback(null, [r]);
    else callback(null, r.address, r.family);
  };

/** POSTs `body`; resolves on a 2xx answer, throws with what went wrong otherwise. */
export async function postWebhook(target: WebhookTarget, body: string, deliveryId: string): Promise<void> {
  const url = new URL(target.url);
  const resolved = await checkedAddress(url.hostname, target.allowPrivate);
  const headers: Record<string, string> = {
    "content-type": "application/json",
    "user-agent": "coder-storage-dashboard",
    "x-storage-delivery-id": deliveryId,
  };
  if (target.secret) headers["x-storage-signature"] = signature(target.secret, body);
  const send = url.protocol === "https:" ? https.request : http.request;
  await new Promise<void>((resolve, reject) => {
    const req = send(url, { method: "POST", headers, lookup: pinned(resolved), timeout: TIMEOUT_MS }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.length < 8 && chunks.push(c));
      res.on("end", () => {
        const status = res.statusCode ?? 0;
        if (status >= 200 && status < 300) resolve();
        else reject(new Error(`webhook answered ${status}: ${Buffer.concat(chunks).toString("utf8").slice(0, 200)}`));
      });
      res.on("error", reject);
    });
    req.on("timeout", () => req.destroy(new Error(`webhook did not answer within ${TIMEOUT_MS / 1000} s`)));
    req.on("error", reject);
    req.end(body);
  });
}
