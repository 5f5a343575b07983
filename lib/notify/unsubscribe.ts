import { createHmac, timingSafeEqual } from "node:crypto";
import { escapeHtml } from "./render";

// The one-click unsubscribe link of every email (RFC 8058): signed per owner with the app's secret, so a link
// works for its owner only and needs no sign-in; a mail scanner that follows it gets the confirmation page, and
// only a POST turns anything off.

export const UNSUBSCRIBE_PATH = "/api/v1/notifications/unsubscribe";

export const unsubscribeSignature = (secret: string, owner: string) =>
  createHmac("sha256", secret).update(`unsubscribe\0${owner}`).digest("base64url");

/** Whether `sig` is `owner`'s signature, compared in constant time. */
export function isUnsubscribeSignature(secret: string, owner: string, sig: string): boolean {
  const expected = Buffer.from(unsubscribeSignature(secret, owner));
  const given = Buffer.from(sig);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export function unsubscribeLink(appUrl: string, secret: string, owner: string): string {
  const query = new URLSearchParams({ owner, sig: unsubscribeSignature(secret, owner) });
  return `${appUrl.replace(/\/+$/, "")}${UNSUBSCRIBE_PATH}?${query}`;
}

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">` +
  `<meta name="robots" content="noindex"><title>${escapeHtml(title)}</title></head><body>` +
  `<h1>${escapeHtml(title)}</h1>${body}</body></html>`;

/**
 * What the link shows when opened: a button that POSTs it. A GET changes nothing, since mail scanners follow
 * links; `action` is the link itself (path and query).
 */
export const unsubscribeConfirmPage = (owner: string, action: string) =>
  page(
    "Turn off the optional storage notices?",
    `<p>Emails to ${escapeHtml(owner)} about a volume filling, a file growing fast or data lost at restart stop. ` +
      `A full volume and a cleanup that will delete data are always told.</p>` +
      `<form method="post" action="${escapeHtml(action)}">` +
      `<input type="hidden" name="List-Unsubscribe" value="One-Click">` +
      `<input type="submit" value="Turn them off"></form>`,
  );

export const unsubscribedPage = (owner: string) =>
  page(
    "The optional storage notices are off",
    `<p>${escapeHtml(owner)} gets no more emails about a volume filling, a file growing fast or data lost at ` +
      `restart. A full volume and a cleanup that will delete data are still told. To turn them on again, use ` +
      `the notification preferences when signed in to the storage dashboard.</p>`,
  );
