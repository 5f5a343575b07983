import { createHmac, timingSafeEqual } from "node:crypto";

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
