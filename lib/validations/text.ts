/**
 * Text that PostgreSQL cannot store, found before any schema or database sees it. Neither `text` nor `jsonb`
 * holds a NUL character, and a lone UTF-16 surrogate (which JSON's `\ud800` escapes can produce) is not a
 * character at all: both made the database fail with a 500. Every string and every object key of a decoded
 * body or query is checked, so the answer can name the field.
 */
export type TextProblem = { path: string; problem: string };

const NUL = "\u0000";
// A high surrogate not followed by a low one, or a low one not preceded by a high one.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function problemOf(s: string): string | null {
  if (s.includes(NUL)) return "contains a NUL character";
  if (LONE_SURROGATE.test(s)) return "contains a lone UTF-16 surrogate (not a character)";
  return null;
}

const join = (path: string, key: string | number) =>
  typeof key === "number" ? `${path}[${key}]` : path ? `${path}.${JSON.stringify(key).slice(1, -1)}` : key;

/** No body or query of this API nests deeper than a handful of levels; the walks below stay bounded. */
export const MAX_DEPTH = 32;

/**
 * The first string or key in `value` that a database cannot store, with its path (`roots[2].path`), or the
 * place where it nests deeper than MAX_DEPTH.
 */
export function findBadText(value: unknown, path = "", depth = 0): TextProblem | null {
  if (depth > MAX_DEPTH && typeof value === "object" && value !== null) {
    return { path: path || "(root)", problem: `nests deeper than ${MAX_DEPTH} levels` };
  }
  if (typeof value === "string") {
    const problem = problemOf(value);
    return problem ? { path: path || "(root)", problem } : null;
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findBadText(value[i], join(path, i), depth + 1);
      if (found) return found;
    }
    return null;
  }
  if (typeof value === "object" && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      const keyProblem = problemOf(key);
      if (keyProblem) return { path: join(path, key), problem: `has a key that ${keyProblem}` };
      const found = findBadText(item, join(path, key), depth + 1);
      if (found) return found;
    }
  }
  return null;
}

// In JSON text decoded as strict UTF-8, the only ways to a NUL or a lone surrogate are the escapes \u0000 and
// \uD800–\uDFFF: raw control characters are not JSON, and UTF-8 cannot encode a surrogate. Text without those
// escapes, nested no deeper than MAX_DEPTH, cannot hold anything findBadText refuses, so its value skips the walk
// (for a report the walk was a tenth of its route's time, the scan below a tenth of the walk). An escaped
// backslash before "u0000" matches too: a false alarm only costs the walk.
const MAY_HOLD_BAD_TEXT = /\\u(?:0000|[dD][89a-fA-F])/;
const cleanValues = new WeakSet<object>();

/** The deepest nesting of arrays and objects in JSON text (brackets inside strings aside). */
function nestingOf(text: string): number {
  let [depth, deepest, inString] = [0, 0, false];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      // A backslash escapes the next character.
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) deepest = Math.max(deepest, ++depth);
    else if (c === 0x7d || c === 0x5d) depth--;
  }
  return deepest;
}

/** Parses JSON text and notes when it cannot hold what findBadText would refuse (see validate). */
export function parseJsonText(text: string): unknown {
  const value: unknown = JSON.parse(text);
  if (typeof value === "object" && value !== null && !MAY_HOLD_BAD_TEXT.test(text) && nestingOf(text) <= MAX_DEPTH) {
    cleanValues.add(value);
  }
  return value;
}

/** True when `value` came whole from parseJsonText's text with no escape that could make bad text. */
export function knownFreeOfBadText(value: unknown): boolean {
  return typeof value === "object" && value !== null && cleanValues.has(value);
}

/** The first string (or key) holding U+FFFD: where a lossy decoding put the replacement of invalid bytes. */
export function findReplacementCharacter(value: unknown, path = "", depth = 0): string | null {
  if (typeof value === "string") return value.includes("\uFFFD") ? path || "(root)" : null;
  if (typeof value !== "object" || value === null || depth > MAX_DEPTH) return null;
  for (const [key, item] of Object.entries(value)) {
    const at = join(path, Array.isArray(value) ? Number(key) : key);
    if (key.includes("\uFFFD")) return at;
    const found = findReplacementCharacter(item, at, depth + 1);
    if (found) return found;
  }
  return null;
}
