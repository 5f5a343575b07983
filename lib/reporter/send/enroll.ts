// Enrollment: the workspace trades the enrollment key for its own token, which is kept before anything else.

import { EXIT } from "../exit-codes";
import { Spool, enrollmentClaim, forgetClaim, isDiskFull, writeToken } from "../state";
import type { Delivery } from "./context";
import { NetworkError, request, serverMessage, withRetries, type HttpResult } from "./http";

/** Writes the token; on a full disk the oldest spooled reports make room for it (it matters more than any). */
function keepToken(ctx: Delivery, token: string) {
  const spool = new Spool(ctx.state);
  let dropped = 0;
  for (;;) {
    try {
      writeToken(ctx.state, token);
      break;
    } catch (err) {
      if (!isDiskFull(err) || !spool.dropOldest()) throw err;
      dropped++;
    }
  }
  if (dropped) ctx.log(`disk full: dropped the ${dropped} oldest spooled report(s) to keep the workspace token`);
}

/**
 * Enrolls (or re-enrolls with the current token), with the claim kept from an earlier try whose answer never
 * came. Returns the new token, or an exit code.
 */
export async function enroll(ctx: Delivery, current: string | null): Promise<string | number> {
  if (!ctx.enrollmentKey) {
    ctx.log(
      `the workspace token is not valid and STORAGE_ENROLLMENT_KEY is not set: an admin must reset workspace ${ctx.identity.id} and the key must be available`,
    );
    return EXIT.AUTH;
  }
  const headers: Record<string, string> = { "X-Enrollment-Key": ctx.enrollmentKey, "Content-Type": "application/json" };
  if (current) headers.Authorization = `Bearer ${current}`;
  const claim = enrollmentClaim(ctx.state);
  let r: HttpResult;
  try {
    r = await withRetries(
      () =>
        request(`${ctx.server}/api/v1/enroll`, {
          method: "POST",
          headers,
          body: Buffer.from(JSON.stringify({ workspace: ctx.identity, ...(claim ? { claim } : {}) })),
        }),
      ctx.retry,
    );
  } catch (err) {
    if (err instanceof NetworkError) return EXIT.SPOOLED;
    throw err;
  }
  if (r.status === 200) {
    const token = (r.body as { token?: unknown } | null)?.token;
    if (typeof token !== "string" || !token) {
      ctx.log("enrollment answered without a token");
      return EXIT.SPOOLED;
    }
    keepToken(ctx, token);
    forgetClaim(ctx.state);
    ctx.log(`enrolled workspace ${ctx.identity.id}`);
    return token;
  }
  if (r.status === 429 || r.status >= 500) return EXIT.SPOOLED;
  if (r.status === 401) {
    ctx.log(`enrollment refused: the enrollment key is wrong (${serverMessage(r)})`);
    return EXIT.AUTH;
  }
  if (r.status === 409) {
    ctx.log(
      `workspace ${ctx.identity.id} is already enrolled and this workspace's token is ${current ? "no longer valid" : "missing"}: ` +
        `an admin must reset the workspace in the dashboard (${serverMessage(r)})`,
    );
    return EXIT.AUTH;
  }
  ctx.log(`enrollment refused: ${serverMessage(r)}`);
  return EXIT.AUTH;
}
