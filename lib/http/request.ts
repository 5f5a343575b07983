import { createGunzip } from "node:zlib";
import type { z } from "zod";
import { BadRequestError, PayloadTooLargeError, UnsupportedMediaTypeError, ValidationError } from "@/lib/errors";

/**
 * Reads a request body, undoing gzip, and stops as soon as either the wire bytes or the decoded bytes pass
 * `limit`: an oversized or zip-bomb body is refused without being held in memory.
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
  const chunks: Buffer[] = [];
  let size = 0;
  const gunzip = encoding === "gzip" ? createGunzip() : null;
  let tooLarge = false;
  const take = (chunk: Buffer) => {
    size += chunk.length;
    if (size > limit) tooLarge = true;
    else chunks.push(chunk);
  };
  const gunzipDone = gunzip
    ? new Promise<void>((resolve, reject) => {
        gunzip.on("data", (c: Buffer) => {
          take(c);
          if (tooLarge) gunzip.destroy();
        });
        gunzip.on("end", resolve);
        gunzip.on("close", resolve);
        gunzip.on("error", () => reject(new BadRequestError("The gzip body is corrupt.", undefined, "malformed_body")));
      })
    : null;

  let wire = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    wire += value.byteLength;
    if (wire > limit || tooLarge) {
      await reader.cancel().catch(() => {});
      throw new PayloadTooLargeError(limit);
    }
    if (gunzip) gunzip.write(value);
    else take(Buffer.from(value));
  }
  if (gunzip) {
    gunzip.end();
    await gunzipDone;
  }
  if (tooLarge) throw new PayloadTooLargeError(limit);
  return Buffer.concat(chunks);
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
  try {
    return JSON.parse(body.toString("utf8"));
  } catch (err) {
    throw new BadRequestError(`The body is not valid JSON: ${(err as Error).message}`, undefined, "malformed_json");
  }
}

/** Validates the URL's query parameters (422 naming the parameter when one is wrong). */
export function readQuery<S extends z.ZodType>(request: Request, schema: S): z.infer<S> {
  return validate(schema, Object.fromEntries(new URL(request.url).searchParams), "query parameters");
}

export function validate<S extends z.ZodType>(schema: S, value: unknown, what = "body"): z.infer<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => ({ path: i.path.join("."), message: i.message }));
    const first = issues[0];
    throw new ValidationError(
      `The ${what} do${what.endsWith("s") ? "" : "es"} not match the schema: ${first ? `${first.path || "(root)"}: ${first.message}` : "invalid"}` +
        (issues.length > 1 ? ` (and ${issues.length - 1} more)` : ""),
      { issues },
    );
  }
  return parsed.data;
}

export function bearerToken(request: Request): string | null {
  const header = request.headers.get("authorization");
  const m = header?.match(/^Bearer\s+(\S+)\s*$/i);
  return m ? m[1] : null;
}
