/** Domain errors: each carries the HTTP status and stable code it maps to in the API's error envelope. */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class BadRequestError extends AppError {
  constructor(message: string, details?: unknown, code = "bad_request") {
    super(400, code, message, details);
  }
}
export class ValidationError extends AppError {
  constructor(message: string, details?: unknown, code = "invalid") {
    super(422, code, message, details);
  }
}
export class UnauthorizedError extends AppError {
  constructor(message = "A valid bearer token is required.") {
    super(401, "unauthorized", message);
  }
}
export class ForbiddenError extends AppError {
  constructor(message: string) {
    super(403, "forbidden", message);
  }
}
export class NotFoundError extends AppError {
  constructor(message: string) {
    super(404, "not_found", message);
  }
}
export class ConflictError extends AppError {
  constructor(message: string, details?: unknown) {
    super(409, "conflict", message, details);
  }
}
export class PayloadTooLargeError extends AppError {
  constructor(limit: number, message = `The body is larger than this endpoint's limit of ${limit} bytes.`) {
    super(413, "payload_too_large", message, { limit });
  }
}
/** 429: the caller must wait `retryAfterSeconds` (sent as Retry-After, whole seconds, at least 1). */
export class TooManyRequestsError extends AppError {
  readonly retryAfterSeconds: number;
  constructor(message: string, retryAfterSeconds: number) {
    super(429, "too_many_requests", message);
    this.retryAfterSeconds = Math.max(1, Math.ceil(retryAfterSeconds));
  }
}
export class UnsupportedMediaTypeError extends AppError {
  constructor(message: string) {
    super(415, "unsupported_media_type", message);
  }
}

// Connection failures (node-postgres / libpq codes), a statement cut off by statement_timeout (57014) and too many
// connections (53300): the database is down or overloaded, not the request wrong.
const UNAVAILABLE_CODES =
  /^(ECONNREFUSED|ECONNRESET|ENOTFOUND|ETIMEDOUT|EHOSTUNREACH|EPIPE|57P0[1-3]|57014|08\d\d\d|53300)$/;
// node-postgres' own failures carry no code: its pool and client timeouts, and a connection the server dropped.
const UNAVAILABLE_MESSAGES =
  /^(timeout exceeded when trying to connect|Connection terminated|Query read timeout|Client has encountered a connection error)/;

/** True when `err` (or an error it wraps) says the database cannot be reached now: callers should retry. */
export function isDatabaseUnavailable(err: unknown): boolean {
  for (
    let e = err as { code?: unknown; message?: unknown; cause?: unknown } | undefined, i = 0;
    e && i < 5;
    e = e.cause as typeof e, i++
  ) {
    if (typeof e.code === "string" && UNAVAILABLE_CODES.test(e.code)) return true;
    if (e instanceof Error && !("code" in e && e.code) && UNAVAILABLE_MESSAGES.test(e.message)) return true;
    if (e instanceof AggregateError && e.errors.some(isDatabaseUnavailable)) return true;
  }
  return false;
}
