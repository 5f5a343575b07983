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
