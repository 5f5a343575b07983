import { promisify } from "node:util";
import { gunzip } from "node:zlib";
import type { z } from "zod";
import { BadRequestError, PayloadTooLargeError, UnsupportedMediaTypeError } from "@/lib/errors";
import { findReplacementCharacter, parseJsonText } from "@/lib/validations/text";
import { validate } from "@/lib/validations/validate";

const gunzipAsync = promisify(gunzip);

/**
 * Reads a request body and undoes gzip. The wire bytes are counted while reading and the read stops past
 * `limit`; gunzip stops at `limit` decoded bytes, so neither an oversized body nor a zip bomb is ever held
 * in memory.
 */
export async function readBody(request: Request, limit: number): Promise<Buffer> {
  const declared = Number(request.headers.get("content-length") ?? "NaN");
  if (declared > limit) throw new PayloadTooLargeError(limit);
  const encoding = (request.headers.get("content-encoding") ?? "identity").toLowerCase();
  if (encoding !== "identity" && encoding !== "gzip") {
    throw new UnsupportedMediaTypeError(`Content-Encoding "${encoding}" is not accepted; send identity or gzip.`);
  }
  if (!request.body) return Buffer.alloc(0);

  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      throw new PayloadTooLargeError(limit);
    }
    chunks.push(value);
  }
  const wire = Buffer.concat(chunks, size);
  if (encoding === "identity") return wire;
  try {
    // In libuv's thread pool, not on the thread that answers every request (5 % of it under a load of reports).
    return await gunzipAsync(wire, { maxOutputLength: limit });
  } catch (err) {
    if ((err as { code?: string }).code === "ERR_BUFFER_TOO_LARGE") throw new PayloadTooLargeError(limit);
    throw new BadRequestError("The gzip body is corrupt.", undefined, "malformed_body");
  }
}

/** Reads, parses and validates a JSON body; 400 for malformed JSON, 422 with field paths for schema errors. */
export async function readJson<S extends z.ZodType>(request: Request, schema: S, limit: number): Promise<z.infer<S>> {
  return validate(schema, parseJson(await readBody(request, limit), request));
}

export function parseJson(body: Buffer, request: Request): unknown {
  const type = request.headers.get("content-type") ?? "application/json";
  if (!/^application\/(.+\+)?json\b/i.test(type)) {
    throw new UnsupportedMediaTypeError(`Content-Type "${type}" is not accepted; send application/json.`);
  }
  let text: string;
  try {
    text = strictUtf8.decode(body);
  } catch {
    throw invalidUtf8(body);
  }
  try {
    return parseJsonText(text);
  } catch (err) {
    throw new BadRequestError(`The body is not valid JSON: ${(err as Error).message}`, undefined, "malformed_json");
  }
}

// Strict: a lenient decoding turned invalid bytes into U+FFFD and stored names that no longer named anything.
const strictUtf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

/** 400, naming the field that holds the invalid bytes when the rest of the body is JSON. */
function invalidUtf8(body: Buffer): BadRequestError {
  let field: string | null = null;
  try {
    field = findReplacementCharacter(JSON.parse(body.toString("utf8")));
  } catch {
    // not JSON either: nothing more to name
  }
  return new BadRequestError(
    `The body is not valid UTF-8${field ? ` (in ${field})` : ""}; text must be UTF-8 (names that are not are sent escaped).`,
    field ? { path: field } : undefined,
    "invalid_utf8",
  );
}

/** Validates the URL's query parameters (422 naming the parameter when one is wrong). */
export function readQuery<S extends z.ZodType>(request: Request, schema: S): z.infer<S> {
  return validate(schema, Object.fromEntries(new URL(request.url).searchParams), "query parameters");
}

export function bearerToken(request: Request): string | null {
  const header = request.headers.get("authorization");
  const m = header?.match(/^Bearer\s+(\S+)\s*$/i);
  return m ? m[1] : null;
}
