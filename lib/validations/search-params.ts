// URL parameters arrive in two shapes: URLSearchParams in the browser (useSearchParams) and a plain object in
// a server page (its `searchParams` prop). Parsers read both through one getter.

export type SearchParamsLike = { get(name: string): string | null };
export type PageSearchParams = Record<string, string | string[] | undefined>;
export type SearchParamsInput = SearchParamsLike | PageSearchParams;

/** A getter over either shape; a repeated parameter reads as its first value. */
export function toGetter(params: SearchParamsInput): SearchParamsLike {
  if (typeof (params as SearchParamsLike).get === "function") return params as SearchParamsLike;
  const obj = params as PageSearchParams;
  return {
    get(name) {
      const v = obj[name];
      return Array.isArray(v) ? (v[0] ?? null) : (v ?? null);
    },
  };
}
