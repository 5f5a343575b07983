// A client of Coder's REST API for the workspace sync: the workspace list (offset pages) and one workspace by id.
// Every request carries the session token (Coder-Session-Token), has a timeout, is retried with exponential
// backoff when Coder or the network fails (5xx, 429, a timeout, a refused connection) and never when Coder refused
// the request itself (any other 4xx); requests run at most `concurrency` at once and at most `perSecond` a second,
// so a sync of thousands of workspaces never floods the deployment.
import pLimit from "p-limit";
import pRetry, { AbortError } from "p-retry";
import pThrottle from "p-throttle";
import { z } from "zod";

/** The fields of Coder's Workspace (API reference, codersdk.Workspace) that the sync keeps. */
export const coderWorkspaceSchema = z.object({
  id: z.string(),
  name: z.string(),
  owner_id: z.string().optional(),
  owner_name: z.string(),
  organization_name: z.string().optional(),
  template_id: z.string().optional(),
  template_name: z.string(),
  template_display_name: z.string().optional(),
  outdated: z.boolean().optional(),
  latest_build: z.object({
    status: z.string(),
    transition: z.string().optional(),
    created_at: z.string().optional(),
  }),
  last_used_at: z.string().nullish(),
  dormant_at: z.string().nullish(),
  deleting_at: z.string().nullish(),
  ttl_ms: z.number().nullish(),
  autostart_schedule: z.string().nullish(),
  health: z.object({ healthy: z.boolean() }).partial().optional(),
});
export type CoderWorkspace = z.infer<typeof coderWorkspaceSchema>;

const listSchema = z.object({ workspaces: z.array(coderWorkspaceSchema), count: z.number().int() });

/** Coder refused or failed a request: its status and Coder's `{ message, detail }`. */
export class CoderApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = "CoderApiError";
  }
}

export type CoderClientOptions = {
  url: string;
  token: string;
  timeoutMs?: number;
  /** Attempts after the first. */
  retries?: number;
  /** The first retry's wait; each next one doubles it. */
  backoffMs?: number;
  concurrency?: number;
  perSecond?: number;
};

export type CoderClient = {
  /** One page of the workspace list (`q` in Coder's search syntax). */
  listWorkspaces: (p: { q?: string; limit: number; offset: number }) => Promise<z.infer<typeof listSchema>>;
  /** One workspace, deleted ones too (with include_deleted); null when Coder never had it (404) or it is gone (410). */
  getWorkspace: (id: string, opts?: { includeDeleted?: boolean }) => Promise<CoderWorkspace | null>;
};

/** Coder's error body as one line: "message: detail", or the validations' details. */
async function errorText(res: Response): Promise<string> {
  const text = await res.text();
  try {
    const body = JSON.parse(text) as { message?: string; detail?: string; validations?: { detail: string }[] };
    const more = body.detail ?? body.validations?.map((v) => v.detail).join("; ");
    const message = body.message ?? res.statusText;
    return more ? `${message.replace(/\.$/, "")}: ${more}` : message;
  } catch {
    return text.slice(0, 200) || res.statusText;
  }
}

const retriable = (status: number) => status >= 500 || status === 429;

export function coderClient(opts: CoderClientOptions): CoderClient {
  const { url, token, timeoutMs = 15_000, retries = 3, backoffMs = 500, concurrency = 4, perSecond = 10 } = opts;
  const limit = pLimit(concurrency);
  const throttle = pThrottle({ limit: perSecond, interval: 1000 });

  /** One GET, answered as JSON, or null for the statuses in `absent`. */
  const once = throttle(async (path: string, absent: number[]): Promise<unknown> => {
    let res: Response;
    try {
      res = await fetch(`${url}${path}`, {
        headers: { "Coder-Session-Token": token, accept: "application/json" },
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (err) {
      const e = err as Error;
      throw new CoderApiError(0, e.name === "TimeoutError" ? `no answer within ${timeoutMs} ms` : e.message);
    }
    if (absent.includes(res.status)) {
      await res.body?.cancel();
      return null;
    }
    if (!res.ok) {
      const error = new CoderApiError(res.status, `${res.status} ${await errorText(res)}`);
      if (retriable(res.status)) throw error;
      throw new AbortError(error);
    }
    return res.json();
  });

  const get = (path: string, absent: number[] = []) =>
    limit(() =>
      pRetry(() => once(path, absent), {
        retries,
        minTimeout: backoffMs,
        factor: 2,
        randomize: true,
      }),
    );

  return {
    async listWorkspaces({ q = "", limit: n, offset }) {
      const params = new URLSearchParams({ q, limit: String(n), offset: String(offset) });
      return listSchema.parse(await get(`/api/v2/workspaces?${params}`));
    },
    async getWorkspace(id, { includeDeleted = false } = {}) {
      const query = includeDeleted ? "?include_deleted=true" : "";
      // Coder's source answers 410 Gone for a deleted workspace asked for without include_deleted; its API
      // reference says 404: both mean that Coder has no such workspace to show.
      const body = await get(`/api/v2/workspaces/${encodeURIComponent(id)}${query}`, [404, 410]);
      return body === null ? null : coderWorkspaceSchema.parse(body);
    },
  };
}
