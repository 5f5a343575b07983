// How long a 429 from Coder asks the sync to wait: Retry-After in seconds or as a date, else X-Ratelimit-Reset
// (epoch seconds, as go-chi/httprate sets it), else Coder's one-minute window.
import { expect, it } from "vitest";
import { rateLimitWait } from "./client";

const now = Date.parse("2026-03-01T12:00:00Z");
const wait = (headers: Record<string, string>) => rateLimitWait(new Headers(headers), now);

it("reads Retry-After first, then X-Ratelimit-Reset, then a minute", () => {
  expect(wait({ "retry-after": "7" })).toBe(7000);
  expect(wait({ "retry-after": "Sun, 01 Mar 2026 12:00:30 GMT" })).toBe(30_000);
  expect(wait({ "retry-after": "3", "x-ratelimit-reset": String(now / 1000 + 40) })).toBe(3000);
  expect(wait({ "x-ratelimit-reset": String(now / 1000 + 40) })).toBe(40_000);
  expect(wait({ "x-ratelimit-reset": String(now / 1000 - 5) })).toBe(0);
  expect(wait({})).toBe(60_000);
});
