import "server-only";
// Secrets the dashboard hands out (workspace tokens, job lease tokens): made and compared here, below every
// module that issues or checks one, so that enrollment, auth and the cleanup queries all import downwards.
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

/** 256 random bits, URL-safe. */
export function generateToken(prefix: string): string {
  return `${prefix}_${randomBytes(32).toString("base64url")}`;
}

export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

export function sameSecret(a: string, b: string): boolean {
  const ha = createHash("sha256").update(a).digest();
  const hb = createHash("sha256").update(b).digest();
  return timingSafeEqual(ha, hb);
}
