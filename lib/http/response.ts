import { NextResponse } from "next/server";
import { AppError } from "@/lib/errors";

export type ErrorEnvelope = { error: { code: string; message: string; details?: unknown } };

export function json<T>(body: T, init?: ResponseInit): NextResponse<T> {
  return NextResponse.json(body, init);
}

/**
 * For the endpoints workspaces call (enroll, reports, health): small answers that are not worth compressing;
 * "no-transform" keeps the server from gzipping them, which cost more CPU than anything else per request.
 */
export function machineJson<T>(body: T, init?: ResponseInit): NextResponse<T> {
  const headers = new Headers(init?.headers);
  headers.set("cache-control", "no-store, no-transform");
  return NextResponse.json(body, { ...init, headers });
}

export function errorResponse(status: number, code: string, message: string, details?: unknown) {
  const error: ErrorEnvelope["error"] = { code, message };
  if (details !== undefined) error.details = details;
  return NextResponse.json<ErrorEnvelope>(
    { error },
    { status, headers: { "cache-control": "no-store, no-transform" } },
  );
}

// Connection failures (node-postgres / libpq codes): the database is down, not the request wrong.
const UNAVAILABLE = /^(ECONNREFUSED|ECONNRESET|ENOTFOUND|ETIMEDOUT|EHOSTUNREACH|57P0[1-3]|08\d\d\d|53300)$/;

function isDatabaseUnavailable(err: unknown): boolean {
  for (
    let e = err as { code?: unknown; cause?: unknown } | undefined, i = 0;
    e && i < 5;
    e = e.cause as typeof e, i++
  ) {
    if (typeof e.code === "string" && UNAVAILABLE.test(e.code)) return true;
    if (e instanceof AggregateError && e.errors.some(isDatabaseUnavailable)) return true;
  }
  return false;
}

/**
 * Maps a thrown error to the envelope: domain errors to their status, a database that cannot be reached to
 * 503 (so callers retry), anything else is logged and becomes a 500.
 */
export function toErrorResponse(err: unknown) {
  if (err instanceof AppError) return errorResponse(err.status, err.code, err.message, err.details);
  if (isDatabaseUnavailable(err)) {
    console.error("[api] database unavailable:", (err as Error).message);
    return errorResponse(503, "database_unavailable", "The database is not reachable right now; try again shortly.");
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
