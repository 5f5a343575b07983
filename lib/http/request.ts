import { pipeline } from "node:stream/promises";
import { setImmediate as nextTurn } from "node:timers/promises";
import { createGunzip } from "node:zlib";
import pLimit from "p-limit";
import type { z } from "zod";
import { AppError, BadRequestError, PayloadTooLargeError, UnsupportedMediaTypeError } from "@/lib/errors";
import { findReplacementCharacter, MAX_DEPTH, parseJsonText } from "@/lib/validations/text";
import { validate } from "@/lib/validations/validate";
import { scanJson } from "./json-scan";

/**
 * Most items of any array or object in a JSON body: the largest any schema of this API accepts (a job result's
 * 100,000 units). Longer ones are refused while the body is scanned, before JSON.parse builds them.
 */
export const MAX_JSON_ITEMS = 100_000;

/**
 * Reads a request body and undoes gzip, both as streams: the wire bytes are counted as they arrive and the read
 * stops past `limit`; gunzip stops once its output passes `limit`, so neither an oversized body nor a zip bomb
 * is ever held in memory whole.
 */
export async function readBody(request: Request, limit: number): Promise<Buffer> {
  return Buffer.concat(await readChunks(request, limit));
}

async function readChunks(request: Request, limit: number): Promise<Buffer[]> {
  const declared = Number(request.headers.get("content-length") ?? "NaN");
  if (declared > limit) throw new PayloadTooLargeError(limit);
  const encoding = (request.headers.get("content-encoding") ?? "identity").toLowerCase();
  if (encoding !== "identity" && encoding !== "gzip") {
    throw new UnsupportedMediaTypeError(`Content-Encoding "${encoding}" is not accepted; send identity or gzip.`);
  }
  if (!request.body) return [];
  const chunks: Buffer[] = [];
  let size = 0;
  async function keep(decoded: AsyncIterable<Uint8Array>) {
    for await (const chunk of decoded) {
      size += chunk.byteLength;
      if (size > limit) throw new PayloadTooLargeError(limit);
      chunks.push(Buffer.from(chunk));
    }
  }
  const wire = wireChunks(request.body, limit);
  try {
    // gunzip runs in libuv's thread pool, not on the thread that answers every request
    await (encoding === "gzip" ? pipeline(wire, createGunzip(), keep) : pipeline(wire, keep));
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw new BadRequestError("The gzip body is corrupt.", undefined, "malformed_body");
  }
  return chunks;
}

/**
 * The body as text, decoded a few chunks at a time with the event loop free between them: a 44 MB body decoded
 * at once held it for 0.6 s.
 */
async function readText(request: Request, limit: number): Promise<string> {
  const chunks = await readChunks(request, limit);
  const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });
  const pieces: string[] = [];
  try {
    for (const [i, chunk] of chunks.entries()) {
      pieces.push(decoder.decode(chunk, { stream: true }));
      if (i % 16 === 15) await nextTurn();
    }
    pieces.push(decoder.decode());
  } catch {
    throw invalidUtf8(Buffer.concat(chunks));
  }
  return pieces.join("");
}

/** The body's chunks as they arrive, refused once more than `limit` bytes came; the rest is never read. */
async function* wireChunks(body: ReadableStream<Uint8Array>, limit: number) {
  const reader = body.getReader();
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      size += value.byteLength;
      if (size > limit) throw new PayloadTooLargeError(limit);
      yield value;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}

/** Reads, parses and validates a JSON body; 400 for malformed JSON, 422 with field paths for schema errors. */
export async function readJson<S extends z.ZodType>(request: Request, schema: S, limit: number): Promise<z.infer<S>> {
  return validate(schema, await readJsonValue(request, limit));
}

/** Reads and parses a JSON body, its arrays' lengths and its nesting checked before it is parsed. */
export async function readJsonValue(request: Request, limit: number): Promise<unknown> {
  requireJsonType(request);
  const text = await scanJson(await readText(request, limit), scanLimits);
  return parseText(text);
}

const scanLimits = { maxItems: MAX_JSON_ITEMS, maxDepth: MAX_DEPTH + 1 };

/**
 * Large bodies are parsed one at a time: a workspace token can make the server hold one large body's values,
 * not one per request it sends at once (the others wait, their bodies read but not yet parsed).
 */
const parsingLarge = pLimit(1);

/**
 * Reads a JSON object whose top-level arrays named in `lift` are large: each of their elements is parsed and
 * handed to its `lift` function (which validates it, and may throw to refuse the body) on its own, with the
 * event loop free between steps. Returns the rest of the object, those arrays empty, and the lifted values.
 */
export async function readJsonLifting<T extends Record<string, (value: unknown, index: number) => unknown>>(
  request: Request,
  limit: number,
  lift: T,
  maxItemChars: number,
): Promise<{ rest: unknown; lifted: { [K in keyof T]: ReturnType<T[K]>[] } }> {
  requireJsonType(request);
  const text = await readText(request, limit);
  const lifted = Object.fromEntries(Object.keys(lift).map((k) => [k, [] as unknown[]]));
  const rest = await parsingLarge(() =>
    scanJson(text, {
      ...scanLimits,
      split: Object.keys(lift),
      maxItemChars,
      onItem: (key, index, item) => void lifted[key].push(lift[key](parseText(item), index)),
    }),
  );
  return { rest: parseText(rest), lifted: lifted as { [K in keyof T]: ReturnType<T[K]>[] } };
}

function requireJsonType(request: Request) {
  const type = request.headers.get("content-type") ?? "application/json";
  if (!/^application\/(.+\+)?json\b/i.test(type)) {
    throw new UnsupportedMediaTypeError(`Content-Type "${type}" is not accepted; send application/json.`);
  }
}

function decodeUtf8(body: Buffer): string {
  try {
    return strictUtf8.decode(body);
  } catch {
    throw invalidUtf8(body);
  }
}

function parseText(text: string): unknown {
  try {
    return parseJsonText(text);
  } catch (err) {
    throw new BadRequestError(`The body is not valid JSON: ${(err as Error).message}`, undefined, "malformed_json");
  }
}

/** Parses a small body already read (one that cannot hold a long array). */
export function parseJson(body: Buffer, request: Request): unknown {
  requireJsonType(request);
  return parseText(decodeUtf8(body));
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
