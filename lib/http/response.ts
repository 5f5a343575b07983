import { NextResponse } from "next/server";
import { AppError, isDatabaseUnavailable, TooManyRequestsError } from "@/lib/errors";
import { SMALL_ANSWER_CACHE_CONTROL } from "./security-headers";

export type ErrorEnvelope = { error: { code: string; message: string; details?: unknown } };

/**
 * Every API answer: nosniff, and not kept by any cache (answers name people, workspaces and their files) unless
 * the route says otherwise.
 */
function apiHeaders(init: HeadersInit | undefined, cacheControl = "no-store"): Headers {
  const headers = new Headers(init);
  headers.set("x-content-type-options", "nosniff");
  if (!headers.has("cache-control")) headers.set("cache-control", cacheControl);
  return headers;
}

export function json<T>(body: T, init?: ResponseInit): NextResponse<T> {
  return NextResponse.json(body, { ...init, headers: apiHeaders(init?.headers) });
}

/** A small page an API route answers a browser with (the unsubscribe link's), never kept by a cache. */
export function html(body: string, init?: ResponseInit): Response {
  const headers = apiHeaders(init?.headers);
  headers.set("content-type", "text/html; charset=utf-8");
  return new Response(body, { ...init, headers });
}

/**
 * For the endpoints workspaces call (enroll, reports, health): small answers that are not worth compressing;
 * "no-transform" keeps the server from gzipping them, which cost more CPU than anything else per request (the
 * proxy keeps it on these paths: WORKSPACE_ENDPOINTS).
 */
export function machineJson<T>(body: T, init?: ResponseInit): NextResponse<T> {
  const headers = apiHeaders(init?.headers);
  headers.set("cache-control", SMALL_ANSWER_CACHE_CONTROL);
  return NextResponse.json(body, { ...init, headers });
}

export function errorResponse(
  status: number,
  code: string,
  message: string,
  details?: unknown,
  extraHeaders: Record<string, string> = {},
) {
  const error: ErrorEnvelope["error"] = { code, message };
  if (details !== undefined) error.details = details;
  return NextResponse.json<ErrorEnvelope>(
    { error },
    { status, headers: apiHeaders({ "cache-control": SMALL_ANSWER_CACHE_CONTROL, ...extraHeaders }) },
  );
}

/**
 * Seconds a client should wait before retrying while the database is unreachable. Reporters add their own
 * jitter on top (lib/reporter/send/http.ts), so a fleet told the same figure does not return in the same second.
 */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/**
 * Maps a thrown error to the envelope: domain errors to their status, a database that cannot be reached to
 * 503 (so callers retry), anything else is logged and becomes a 500.
 */
export function toErrorResponse(err: unknown) {
  if (err instanceof TooManyRequestsError) {
    return errorResponse(err.status, err.code, err.message, undefined, {
      "retry-after": String(err.retryAfterSeconds),
    });
  }
  if (err instanceof AppError) return errorResponse(err.status, err.code, err.message, err.details);
  if (isDatabaseUnavailable(err)) {
    console.error("[api] database unavailable:", (err as Error).message);
    return errorResponse(
      503,
      "database_unavailable",
      "The database is not reachable right now; try again shortly.",
      undefined,
      { "retry-after": String(DATABASE_RETRY_AFTER_SECONDS) },
    );
  }
  console.error("[api] unexpected error:", err);
  return errorResponse(500, "internal", "The server failed to handle this request; it has been logged.");
}

type Handler<C> = (request: Request, context: C) => Promise<Response>;

/** Wraps a route handler so every failure leaves through the one error envelope. */
export function handle<C>(fn: Handler<C>): Handler<C> {
  return async (request, context) => {
    try {
      return await fn(request, context);
    } catch (err) {
      return toErrorResponse(err);
    }
  };
}
