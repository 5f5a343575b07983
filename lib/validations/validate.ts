import type { z } from "zod";
import { ValidationError } from "@/lib/errors";
import { findBadText, knownFreeOfBadText } from "./text";

/**
 * Checks a decoded value against a schema: text that could not be stored or shown first, then the schema; 422
 * naming the field. Every way in (a request's body or query, a report) validates through it. `at` is where the
 * value lies in the body when it is one element of it (`units.7`).
 */
export function validate<S extends z.ZodType>(schema: S, value: unknown, what = "body", at = ""): z.infer<S> {
  const bad = knownFreeOfBadText(value) ? null : findBadText(value, at);
  if (bad) {
    const issues = [{ path: bad.path, message: bad.problem }];
    throw new ValidationError(`In the ${what}, ${bad.path} ${bad.problem}.`, { issues }, "invalid_text");
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => ({
      path: [at, ...i.path].filter((p) => p !== "").join("."),
      message: i.message,
    }));
    const first = issues[0];
    throw new ValidationError(
      `The ${what} do${what.endsWith("s") ? "" : "es"} not match the schema: ${first ? `${first.path || "(root)"}: ${first.message}` : "invalid"}` +
        (issues.length > 1 ? ` (and ${issues.length - 1} more)` : ""),
      { issues },
    );
  }
  return parsed.data;
}
