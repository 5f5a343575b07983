// A client of Coder's REST API for the workspace sync: the workspace list (offset pages) and one workspace by id.
// Every request carries the session token (Coder-Session-Token), has a timeout, is retried with exponential
// backoff when Coder or the network fails (5xx, a timeout, a refused connection) and never when Coder refused the
// request itself (any other 4xx). Coder's rate limit (429, a one-minute window) is waited out as its Retry-After
// (else X-Ratelimit-Reset) says, as long as the wait ends before `deadline` (the sync's next tick); requests run at
// most `concurrency` at once and at most `perSecond` a second, so a sync of thousands of workspaces never floods
// the deployment.
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
  organization_id: z.string().optional(),
  organization_name: z.string().optional(),
  template_id: z.string().optional(),
  template_name: z.string(),
  template_display_name: z.string().optional(),
  outdated: z.boolean().optional(),
  latest_build: z.object({
    status: z.string(),
    transition: z.string().optional(),
    created_at: z.string().optional(),
    /** The build's provisioner job; a delete build's `completed_at` is when the workspace was deleted. */
    job: z.object({ completed_at: z.string().nullish() }).partial().optional(),
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

/** The fields of Coder's User that the owners' notices need: where to email a workspace's owner. */
const usersSchema = z.object({
  users: z.array(z.object({ username: z.string(), email: z.string().optional().default("") })),
  count: z.number().int(),
});

/** The fields of Coder's Organization (codersdk.Organization) that the usage by organization names. */
const organizationsSchema = z.array(
  z.object({ id: z.string(), name: z.string(), display_name: z.string().default("") }),
);

/** The fields of Coder's Group (codersdk.Group): its members come inline, as ReducedUser. */
const groupsSchema = z.array(
  z.object({
    id: z.string(),
    name: z.string(),
    display_name: z.string().default(""),
    organization_id: z.string(),
    members: z.array(z.object({ username: z.string() })).nullish(),
  }),
);
export type CoderGroup = z.infer<typeof groupsSchema>[number];

/**
 * An organization's groups, or why not: groups are a paid feature of Coder, whose enterprise build answers 403
 * ("Template RBAC is a Premium feature") without the license and whose open-source build has no such route (404).
 */
export type GroupsLookup =
  { kind: "found"; groups: CoderGroup[] } | { kind: "unavailable"; status: number; message: string };

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
  /** Epoch ms after which a rate limit is not waited out (the request fails with 429 instead). */
  deadline?: number;
};

/**
 * What Coder answers for one workspace looked up by id: the workspace, or why not. Gone: 404 (never had it, or the
 * token may not read it) or 410 (deleted). Not readable: 403, the token reads the workspace but not its template
 * (coderd/workspaces.go). Not a Coder id: 400 "Invalid UUID" (coderd/httpmw).
 */
export type WorkspaceLookup =
  { kind: "found"; workspace: CoderWorkspace } | { kind: "gone" } | { kind: "not_readable" } | { kind: "not_coder_id" };

export type CoderClient = {
  /** One page of the workspace list (`q` in Coder's search syntax). */
  listWorkspaces: (p: { q?: string; limit: number; offset: number }) => Promise<z.infer<typeof listSchema>>;
  /** One workspace, deleted ones too (with include_deleted), or why Coder does not show it. */
  lookupWorkspace: (id: string, opts?: { includeDeleted?: boolean }) => Promise<WorkspaceLookup>;
  /** The organizations the token's user may see (Coder does not page this list). */
  listOrganizations?: () => Promise<z.infer<typeof organizationsSchema>>;
  /** One organization's groups with their members. */
  listGroups?: (organizationId: string) => Promise<GroupsLookup>;
  /** One page of the users (their email addresses: needs a token that may read users). */
  listUsers?: (p: { limit: number; offset: number }) => Promise<z.infer<typeof usersSchema>>;
};

type Answer = { status: number; body?: unknown; message?: string };

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

const retriable = (status: number) => status >= 500;
/** Coder's window when a 429 names no time. */
const RATE_WINDOW_MS = 60_000;

/** Coder's 429: how long it asks the client to wait. */
class RateLimited extends Error {
  constructor(readonly waitMs: number) {
    super(`rate limited by Coder for ${Math.ceil(waitMs / 1000)} s`);
  }
}

/** The wait a 429 asks for: Retry-After (seconds or a date), else X-Ratelimit-Reset (epoch seconds), else a window. */
export function rateLimitWait(headers: Headers, now = Date.now()): number {
  const after = headers.get("retry-after");
  if (after !== null) {
    const seconds = Number(after);
    if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
    const at = Date.parse(after);
    if (!Number.isNaN(at)) return Math.max(0, at - now);
  }
  const reset = Number(headers.get("x-ratelimit-reset") ?? Number.NaN);
  if (Number.isFinite(reset) && reset > 0) return Math.max(0, reset * 1000 - now);
  return RATE_WINDOW_MS;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function coderClient(opts: CoderClientOptions): CoderClient {
  const { url, token, timeoutMs = 15_000, retries = 3, backoffMs = 500, concurrency = 4, perSecond = 10 } = opts;
  const deadline = opts.deadline ?? Date.now() + RATE_WINDOW_MS;
  const limit = pLimit(concurrency);
  const throttle = pThrottle({ limit: perSecond, interval: 1000 });

  /** One GET: the JSON body, or for a status in `expected` that status and Coder's message. */
  const once = throttle(async (path: string, expected: number[]): Promise<Answer> => {
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
    if (expected.includes(res.status)) return { status: res.status, message: await errorText(res) };
    if (res.status === 429) {
      await res.body?.cancel();
      throw new AbortError(new RateLimited(rateLimitWait(res.headers)));
    }
    if (!res.ok) {
      const error = new CoderApiError(res.status, `${res.status} ${await errorText(res)}`);
      if (retriable(res.status)) throw error;
      throw new AbortError(error);
    }
    return { status: res.status, body: await res.json() };
  });

  const attempt = (path: string, expected: number[]) =>
    pRetry(() => once(path, expected), { retries, minTimeout: backoffMs, factor: 2, randomize: true });

  /** A GET with its retries; a rate limit is waited out while the wait ends before the deadline. */
  const get = (path: string, expected: number[] = []) =>
    limit(async () => {
      for (;;) {
        try {
          return await attempt(path, expected);
        } catch (err) {
          if (!(err instanceof RateLimited)) throw err;
          if (Date.now() + err.waitMs > deadline) {
            throw new CoderApiError(
              429,
              `429 ${err.message}, which ends after this sync's schedule; the next sync tries again`,
            );
          }
          await sleep(err.waitMs);
        }
      }
    });

  return {
    async listWorkspaces({ q = "", limit: n, offset }) {
      const params = new URLSearchParams({ q, limit: String(n), offset: String(offset) });
      return listSchema.parse((await get(`/api/v2/workspaces?${params}`)).body);
    },
    async listUsers({ limit: n, offset }) {
      const params = new URLSearchParams({ limit: String(n), offset: String(offset) });
      return usersSchema.parse((await get(`/api/v2/users?${params}`)).body);
    },
    async listOrganizations() {
      return organizationsSchema.parse((await get("/api/v2/organizations")).body);
    },
    async listGroups(organizationId) {
      const answer = await get(`/api/v2/organizations/${encodeURIComponent(organizationId)}/groups`, [403, 404]);
      if (answer.status === 403 || answer.status === 404) {
        return { kind: "unavailable", status: answer.status, message: answer.message ?? "" };
      }
      return { kind: "found", groups: groupsSchema.parse(answer.body) };
    },
    async lookupWorkspace(id, { includeDeleted = false } = {}) {
      const query = includeDeleted ? "?include_deleted=true" : "";
      // Coder's source answers 410 Gone for a deleted workspace asked for without include_deleted; its API
      // reference says 404: both mean that Coder has no such workspace to show.
      const answer = await get(`/api/v2/workspaces/${encodeURIComponent(id)}${query}`, [400, 403, 404, 410]);
      if (answer.status === 404 || answer.status === 410) return { kind: "gone" };
      if (answer.status === 403) return { kind: "not_readable" };
      if (answer.status === 400) {
        if (/^Invalid UUID/i.test(answer.message ?? "")) return { kind: "not_coder_id" };
        throw new CoderApiError(400, `400 ${answer.message}`);
      }
      return { kind: "found", workspace: coderWorkspaceSchema.parse(answer.body) };
    },
  };
}
