import type { RangeKey } from "@/lib/series";

// The time range every chart page keeps in its URL: ?range=7d|30d|90d|custom&from=YYYY-MM-DD&to=YYYY-MM-DD.
// Parsing is forgiving (a bad value falls back to the default) so a hand-edited link still opens.

export type RangeState = { range: RangeKey; from?: string; to?: string };

export const RANGE_OPTIONS: readonly { key: RangeKey; label: string }[] = [
  { key: "7d", label: "7 d" },
  { key: "30d", label: "30 d" },
  { key: "90d", label: "90 d" },
  { key: "custom", label: "Custom" },
];

const PRESETS = new Set<string>(["7d", "30d", "90d"]);
const DAY_RE = /^\d{4}-\d{2}-\d{2}$/;

export type SearchParamsLike = { get(name: string): string | null };

/** Reads from URLSearchParams, or the plain object Next.js gives a page. */
export function toGetter(params: SearchParamsLike | Record<string, string | string[] | undefined>): SearchParamsLike {
  if (typeof (params as SearchParamsLike).get === "function") return params as SearchParamsLike;
  const obj = params as Record<string, string | string[] | undefined>;
  return {
    get(name) {
      const v = obj[name];
      return Array.isArray(v) ? (v[0] ?? null) : (v ?? null);
    },
  };
}

function validDay(s: string | null): string | undefined {
  if (!s || !DAY_RE.test(s)) return undefined;
  return Number.isNaN(Date.parse(`${s}T00:00:00Z`)) ? undefined : s;
}

export function parseRange(input: SearchParamsLike | Record<string, string | string[] | undefined>, fallback: RangeKey = "30d"): RangeState {
  const p = toGetter(input);
  const range = p.get("range");
  if (range && PRESETS.has(range)) return { range: range as RangeKey };
  if (range === "custom") {
    const from = validDay(p.get("from"));
    let to = validDay(p.get("to"));
    if (!from) return { range: fallback };
    if (to && to < from) to = undefined;
    return to ? { range: "custom", from, to } : { range: "custom", from };
  }
  return { range: fallback };
}

/** Query-string entries for a range; the default range writes nothing so URLs stay short. */
export function rangeEntries(state: RangeState, fallback: RangeKey = "30d"): Record<string, string | null> {
  if (state.range === "custom") return { range: "custom", from: state.from ?? null, to: state.to ?? null };
  return { range: state.range === fallback ? null : state.range, from: null, to: null };
}

/** The key part and API parameters of a range (custom ranges carry their days). */
export function rangeParams(state: RangeState): { range: RangeKey; from?: string; to?: string } {
  return state.range === "custom" ? { range: "custom", from: state.from, to: state.to } : { range: state.range };
}
