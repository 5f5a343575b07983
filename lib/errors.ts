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
  constructor(limit: number) {
    super(413, "payload_too_large", `The body is larger than this endpoint's limit of ${limit} bytes.`, { limit });
  }
}
export class UnsupportedMediaTypeError extends AppError {
  constructor(message: string) {
    super(415, "unsupported_media_type", message);
  }
}
