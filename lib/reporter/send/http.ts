// A small HTTP client for the dashboard's API (node:http/https), with retries that back off exponentially with
// full jitter and honour Retry-After, through the workspace's proxy where its environment names one (./proxy.ts).

import type { Agent } from "node:http";
import { createRequire } from "node:module";
import { proxyFor } from "./proxy";

// node:http, node:https (with tls) and node:zlib are loaded on first use: a dry run, and the scan that comes
// before any sending, start faster without them.
const load = createRequire(import.meta.url);
const httpModule = () => load("node:http") as typeof import("node:http");
const httpsModule = () => load("node:https") as typeof import("node:https");
const zlibModule = () => load("node:zlib") as typeof import("node:zlib");

/**
 * The variable that names extra CA certificates for HTTPS (a dashboard behind a private CA), as
 * NODE_EXTRA_CA_CERTS does. The module's script hands that file over in this variable instead: Node reads
 * NODE_EXTRA_CA_CERTS at every start, before anything else (80 ms of each run for a 140-certificate bundle,
 * measured), and the reporter needs it only when it sends. Node's default roots stay trusted, as with Node's.
 */
export const EXTRA_CA_ENV = "STORAGE_REPORTER_EXTRA_CA_CERTS";
const extraCa = new Map<string, string[] | undefined>();

/** The certificates to trust for HTTPS: undefined (Node's default) unless EXTRA_CA_ENV names a readable file. */
function httpsCa(): string[] | undefined {
  const file = process.env[EXTRA_CA_ENV];
  if (!file) return undefined;
  if (!extraCa.has(file)) {
    let ca: string[] | undefined;
    try {
      const tls = load("node:tls") as typeof import("node:tls");
      ca = [...tls.rootCertificates, load("node:fs").readFileSync(file, "utf8")];
    } catch (err) {
      // as Node does with NODE_EXTRA_CA_CERTS: a warning, and the default roots
      console.warn(`reporter: ignoring ${EXTRA_CA_ENV}=${file}: ${(err as Error).message}`);
    }
    extraCa.set(file, ca);
  }
  return extraCa.get(file);
}

export type HttpResult = {
  status: number;
  /** Parsed JSON body, or null. */
  body: unknown;
  retryAfterMs: number | null;
};

/** Transport failure (DNS, refused, reset, timeout): the server could not be reached. */
export class NetworkError extends Error {}

export type RequestOptions = {
  method: "GET" | "POST";
  headers?: Record<string, string>;
  body?: Buffer;
  timeoutMs?: number;
};

/**
 * The agent that tunnels to `target` through the proxy the environment names for it (CONNECT for https, an
 * absolute URI for http), or false to go direct. The proxy libraries are loaded only when a proxy is set.
 */
async function proxyAgent(target: URL, ca: string[] | undefined): Promise<{ agent: Agent | false; via: string }> {
  let proxy: URL | null;
  try {
    proxy = proxyFor(target);
  } catch (err) {
    console.warn(`reporter: ${(err as Error).message}; connecting to ${target.host} directly`);
    return { agent: false, via: "" };
  }
  if (!proxy) return { agent: false, via: "" };
  const via = ` (through the proxy ${proxy.host})`;
  // The extra CA certificates are trusted for an https:// proxy too, as curl's --cacert is.
  if (target.protocol === "https:") {
    const { HttpsProxyAgent } = await import("https-proxy-agent");
    return { agent: new HttpsProxyAgent(proxy, { ...(ca && { ca }) }), via };
  }
  const { HttpProxyAgent } = await import("http-proxy-agent");
  return { agent: new HttpProxyAgent(proxy, { ...(ca && { ca }) }), via };
}

export async function request(url: string, opts: RequestOptions): Promise<HttpResult> {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new Error(`invalid URL ${url}`);
  }
  const mod = u.protocol === "https:" ? httpsModule() : u.protocol === "http:" ? httpModule() : null;
  if (!mod) throw new Error(`unsupported URL scheme in ${url}`);
  const headers: Record<string, string> = {
    "User-Agent": "coder-storage-reporter",
    Accept: "application/json",
    ...opts.headers,
  };
  if (opts.body) headers["Content-Length"] = String(opts.body.length);
  const ca = u.protocol === "https:" ? httpsCa() : undefined;
  const { agent, via } = await proxyAgent(u, ca);
  return new Promise((resolve, reject) => {
    const req = mod.request(u, { method: opts.method, headers, agent, ...(ca && { ca }) }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on("data", (c: Buffer) => {
        size += c.length;
        if (size <= 1024 * 1024) chunks.push(c);
      });
      res.on("end", () => {
        let body: unknown = null;
        try {
          const text = Buffer.concat(chunks).toString("utf8");
          body = text ? JSON.parse(text) : null;
        } catch {
          body = null;
        }
        resolve({ status: res.statusCode ?? 0, body, retryAfterMs: parseRetryAfter(res.headers["retry-after"]) });
      });
      res.on("error", (err) => reject(new NetworkError(err.message)));
    });
    req.setTimeout(opts.timeoutMs ?? 30_000, () => req.destroy(new Error("timed out")));
    req.on("error", (err) =>
      reject(new NetworkError(`${u.origin}${via}: ${(err as NodeJS.ErrnoException).code ?? err.message}`)),
    );
    req.end(opts.body);
  });
}

/** Retry-After in milliseconds (seconds or an HTTP date), or null. */
export function parseRetryAfter(v: string | string[] | undefined, now = Date.now()): number | null {
  if (Array.isArray(v)) v = v[0];
  if (!v) return null;
  if (/^\d+$/.test(v.trim())) return Number(v.trim()) * 1000;
  const t = Date.parse(v);
  return Number.isFinite(t) ? Math.max(0, t - now) : null;
}

/** The server's message from the error envelope {"error":{"code","message"}}. */
export function serverMessage(r: HttpResult): string {
  const e = (r.body as { error?: { code?: string; message?: string } } | null)?.error;
  if (e?.message) return e.code ? `${e.message} (${e.code})` : e.message;
  return `HTTP ${r.status}`;
}

export const isRetryable = (status: number) => status === 429 || status >= 500;

export type RetryPolicy = {
  attempts: number;
  baseMs: number;
  capMs: number;
  /** A Retry-After longer than this gives up for this run (the report waits in the spool). */
  maxRetryAfterMs: number;
  sleep: (ms: number) => Promise<void>;
  random: () => number;
};

export const DEFAULT_RETRY: RetryPolicy = {
  attempts: 3,
  baseMs: 1000,
  capMs: 20_000,
  maxRetryAfterMs: 60_000,
  sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
  random: Math.random,
};

/** Full jitter: a uniformly random wait in [0, min(cap, base × 2^attempt)). */
export function backoffMs(attempt: number, p: Pick<RetryPolicy, "baseMs" | "capMs" | "random">): number {
  return Math.floor(p.random() * Math.min(p.capMs, p.baseMs * 2 ** attempt));
}

/**
 * Runs `send` until it gives a non-retryable answer or the attempts run out. Returns the last answer, or
 * throws the last NetworkError.
 */
export async function withRetries(
  send: () => Promise<HttpResult>,
  p: RetryPolicy = DEFAULT_RETRY,
): Promise<HttpResult> {
  let last: HttpResult | NetworkError | null = null;
  for (let attempt = 0; attempt < p.attempts; attempt++) {
    if (attempt > 0) {
      let wait = backoffMs(attempt - 1, p);
      if (!(last instanceof Error) && last?.retryAfterMs != null) {
        if (last.retryAfterMs > p.maxRetryAfterMs) break;
        // Retry-After and up to as long again at random: a fleet told the same figure (a dashboard's database
        // back after an outage) does not return in the same second.
        wait = Math.max(wait, last.retryAfterMs + Math.floor(p.random() * last.retryAfterMs));
      }
      await p.sleep(wait);
    }
    try {
      last = await send();
      if (!isRetryable(last.status)) return last;
    } catch (err) {
      if (!(err instanceof NetworkError)) throw err;
      last = err;
    }
  }
  if (last instanceof Error) throw last;
  return last!;
}

export function gzip(data: string): Buffer {
  return zlibModule().gzipSync(Buffer.from(data, "utf8"), { level: 6 });
}

export function gunzip(data: Buffer): Buffer {
  return zlibModule().gunzipSync(data);
}
