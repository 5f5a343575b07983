/** An API failure, carrying the error envelope's code and the HTTP status. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

type Envelope = { error?: { code?: unknown; message?: unknown } };

/**
 * GETs (or sends) JSON from the dashboard's own API. A non-2xx answer throws an ApiError built from the
 * `{ error: { code, message } }` envelope, so TanStack Query shows an error state, never an empty one.
 */
export async function fetchJson<T>(path: string, init?: RequestInit & { signal?: AbortSignal }): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, {
      ...init,
      headers: {
        accept: "application/json",
        ...(init?.body ? { "content-type": "application/json" } : {}),
        ...init?.headers,
      },
    });
  } catch (err) {
    if ((err as Error).name === "AbortError") throw err;
    throw new ApiError(0, "network", `Could not reach the dashboard's API (${(err as Error).message}).`);
  }
  const text = await response.text();
  let body: unknown = undefined;
  if (text) {
    try {
      body = JSON.parse(text);
    } catch {
      if (response.ok) throw new ApiError(response.status, "bad_json", `The API answered ${path} with invalid JSON.`);
    }
  }
  if (!response.ok) {
    const error = (body as Envelope | undefined)?.error;
    const code = typeof error?.code === "string" ? error.code : `http_${response.status}`;
    const message =
      typeof error?.message === "string"
        ? error.message
        : `The API answered ${response.status} ${response.statusText || ""}`.trim();
    throw new ApiError(response.status, code, message);
  }
  return body as T;
}

/** Builds "path?a=1&b=2" from defined, non-empty values only. */
export function withQuery(path: string, params: Record<string, string | number | boolean | null | undefined>): string {
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined || v === null || v === "") continue;
    qs.set(k, String(v));
  }
  const s = qs.toString();
  return s ? `${path}?${s}` : path;
}
