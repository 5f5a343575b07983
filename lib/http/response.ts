import { NextResponse } from "next/server";
import { AppError } from "@/lib/errors";

export type ErrorEnvelope = { error: { code: string; message: string; details?: unknown } };

export function json<T>(body: T, init?: ResponseInit): NextResponse<T> {
  return NextResponse.json(body, init);
}

export function errorResponse(status: number, code: string, message: string, details?: unknown) {
  const error: ErrorEnvelope["error"] = { code, message };
  if (details !== undefined) error.details = details;
  return NextResponse.json<ErrorEnvelope>({ error }, { status, headers: { "cache-control": "no-store" } });
}

/** Maps a thrown error to the envelope; anything that is not a domain error is logged and becomes a 500. */
export function toErrorResponse(err: unknown) {
  if (err instanceof AppError) return errorResponse(err.status, err.code, err.message, err.details);
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
