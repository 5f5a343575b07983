// Coder's workspace endpoints, as its API reference (docs/reference/api/workspaces.md, schemas.md) and its source
// describe them: GET /api/v2/workspaces?q=&limit=&offset= answers { workspaces, count } with offset paging and
// Coder's search syntax (key:value terms, a bare term is the name or owner/name, an unknown key is refused with
// 400 and Coder's { message, validations }); GET /api/v2/workspaces/{id} answers 410 Gone for a deleted workspace
// unless include_deleted=true, 404 for an id Coder never had, 400 "Invalid UUID" for an id that is not a UUID
// (httpmw.ParseUUIDParam) and 403 for a workspace whose template the caller cannot read (coderd/workspaces.go). The
// list leaves out the rows whose template the caller cannot read while its `count` still has them, and orders as
// coderd/database/queries/workspaces.sql does: workspaces whose latest build started them first, then by owner and
// name. Both need a session token (Coder-Session-Token or Authorization: Bearer), 401 without. Tests can make it
// fail: a status for the next N requests, Coder's rate limit (429 with Retry-After or X-Ratelimit-Reset), or a delay.
import type http from "node:http";
import { sendCoderError, sendJson, type CoderHandler } from "./server";

export const CODER_BUILD_STATUSES = [
  "pending",
  "starting",
  "running",
  "stopping",
  "stopped",
  "failed",
  "canceling",
  "canceled",
  "deleting",
  "deleted",
] as const;
export type CoderBuildStatus = (typeof CODER_BUILD_STATUSES)[number];

/** The fields of codersdk.Workspace the stand-in keeps (the API reference's schema; others are filled in). */
export type CoderWorkspace = {
  id: string;
  name: string;
  owner_id: string;
  owner_name: string;
  organization_name: string;
  /** The default organization's id unless given. */
  organization_id?: string;
  template_id: string;
  template_name: string;
  template_display_name: string;
  outdated: boolean;
  latest_build: {
    status: CoderBuildStatus;
    transition: "start" | "stop" | "delete";
    /** The build's provisioner job: `completed_at` is when the build finished. */
    job?: { completed_at: string | null };
  };
  last_used_at: string;
  dormant_at: string | null;
  deleting_at: string | null;
  ttl_ms: number | null;
  autostart_schedule: string | null;
  health: { healthy: boolean };
  /** Deleted workspaces are not listed, and answer 410 unless asked for with include_deleted=true. */
  deleted?: boolean;
};

/** A workspace with every field filled in from `w` and plausible defaults. */
export function coderWorkspace(
  w: Pick<CoderWorkspace, "id" | "name" | "owner_name"> & Partial<CoderWorkspace>,
): CoderWorkspace {
  return {
    owner_id: `user-${w.owner_name}`,
    organization_name: "coder",
    template_id: "tpl-1",
    template_name: "docker",
    template_display_name: "Docker",
    outdated: false,
    latest_build: { status: "running", transition: "start" },
    last_used_at: "2026-01-01T00:00:00Z",
    dormant_at: null,
    deleting_at: null,
    ttl_ms: null,
    autostart_schedule: null,
    health: { healthy: true },
    ...w,
  };
}

export type CoderWorkspaces = {
  handler: CoderHandler;
  /** The deployment's workspaces, deleted ones included (changed in place by tests). */
  workspaces: Map<string, CoderWorkspace>;
  /** Marks a workspace deleted, as a delete build that succeeded (at `completedAt`) does. */
  remove: (id: string, completedAt?: string) => void;
  /** Template ids the session token cannot read (a custom role with workspace read but no template read). */
  unreadableTemplates: Set<string>;
  /** The next `times` workspace requests answer Coder's 429, with these headers (Retry-After, X-Ratelimit-Reset). */
  rateLimitNext: (times: number, headers: Record<string, string>) => void;
  /** The next `times` workspace requests answer `status` (500, 503, ...) with Coder's error shape. */
  failNext: (status: number, times?: number) => void;
  /** Every workspace request waits this long before answering (a timeout, for a client with a shorter one). */
  delayMs: (ms: number) => void;
  /** Every workspace request's path and query, in order. */
  requests: string[];
};

/** Keys Coder's workspace search accepts (coderd/searchquery: Workspaces); any other is refused. */
const SEARCH_KEYS = new Set([
  "id",
  "owner",
  "template",
  "name",
  "status",
  "has-agent",
  "dormant",
  "last_used_after",
  "last_used_before",
  "outdated",
  "has-ai-task",
  "has_external_agent",
  "organization",
  "shared",
  "shared_with_user",
  "shared_with_group",
  "healthy",
  "param",
]);

type Validation = { field: string; detail: string };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Splits on `delim` outside double quotes, as Coder's splitQueryParameterByDelimiter does. */
function splitOutsideQuotes(s: string, delim: string, keepQuotes: boolean): string[] {
  const parts: string[] = [];
  let quoted = false;
  let cur = "";
  for (const ch of s) {
    if (ch === '"') quoted = !quoted;
    if (!quoted && ch === delim) {
      if (cur) parts.push(cur);
      cur = "";
    } else cur += ch;
  }
  if (cur) parts.push(cur);
  return keepQuotes ? parts : parts.map((p) => p.replace(/^"+|"+$/g, ""));
}

/** Coder's workspace search: key:value terms, bare terms joined into the name (or owner/name). */
export function parseWorkspaceSearch(q: string): { values: Map<string, string[]> } | { errors: Validation[] } {
  const values = new Map<string, string[]>();
  const add = (k: string, v: string) => values.set(k, [...(values.get(k) ?? []), v]);
  if (q === "") return { values };
  const tokens = splitOutsideQuotes(q.toLowerCase(), " ", true);
  const bare = tokens.filter((t) => !t.includes(":"));
  const elements = [...tokens.filter((t) => t.includes(":")), ...(bare.length ? [bare.join(" ")] : [])];
  for (const el of elements) {
    if (el.startsWith(":") || el.endsWith(":")) {
      return { errors: [{ field: "q", detail: `Query element "${el}" cannot start or end with ':'` }] };
    }
    const parts = splitOutsideQuotes(el, ":", false);
    if (parts.length === 1) {
      const names = splitOutsideQuotes(el, "/", false);
      if (names.length === 1) add("name", names[0]);
      else if (names.length === 2) {
        add("owner", names[0]);
        add("name", names[1]);
      } else return { errors: [{ field: "q", detail: `Query element "${el}" can only contain 1 '/'` }] };
    } else if (parts.length === 2) add(parts[0], parts[1]);
    else return { errors: [{ field: "q", detail: `Query element "${el}" can only contain 1 ':'` }] };
  }
  const errors: Validation[] = [];
  for (const [k, v] of values) {
    if (!SEARCH_KEYS.has(k)) errors.push({ field: k, detail: `Query param "${k}" is not a valid query param` });
    else if (k === "status" && !(CODER_BUILD_STATUSES as readonly string[]).includes(v[0]))
      errors.push({ field: k, detail: `Query param "status" has invalid value: "${v[0]}" is not a valid value` });
    else if (k === "dormant" && !["true", "false"].includes(v[0]))
      errors.push({ field: k, detail: `Query param "dormant" must be a valid boolean` });
    else if ((k === "last_used_after" || k === "last_used_before") && Number.isNaN(Date.parse(v[0])))
      errors.push({ field: k, detail: `Query param "${k}" must be a valid date format (RFC3339)` });
  }
  return errors.length ? { errors } : { values };
}

function matches(w: CoderWorkspace, values: Map<string, string[]>): boolean {
  const one = (k: string) => values.get(k)?.[0];
  const owner = one("owner");
  if (owner && w.owner_name.toLowerCase() !== owner) return false;
  const template = one("template");
  if (template && w.template_name.toLowerCase() !== template) return false;
  const name = one("name");
  if (name && !w.name.toLowerCase().includes(name)) return false;
  const status = one("status");
  if (status && w.latest_build.status !== status) return false;
  const dormant = one("dormant");
  if (dormant === "true" && w.dormant_at === null) return false;
  const after = one("last_used_after");
  if (after && Date.parse(w.last_used_at) <= Date.parse(after)) return false;
  const before = one("last_used_before");
  if (before && Date.parse(w.last_used_at) >= Date.parse(before)) return false;
  const ids = values.get("id");
  if (ids && !ids.flatMap((v) => v.split(",")).includes(w.id)) return false;
  return true;
}

/** The session token of a request: Coder-Session-Token, or Authorization: Bearer. */
function sessionToken(req: http.IncomingMessage): string | undefined {
  const header = req.headers.authorization;
  if (header?.startsWith("Bearer ")) return header.slice(7);
  return req.headers["coder-session-token"] as string | undefined;
}

/** A non-negative integer query parameter (Coder's ParsePagination), or the error it answers. */
function pageParam(url: URL, name: string): number | Validation {
  const raw = url.searchParams.get(name);
  if (raw === null || raw === "") return 0;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) return { field: name, detail: `Query param "${name}" must be a valid integer` };
  return n;
}

const publicShape = ({ deleted: _deleted, ...w }: CoderWorkspace) => ({
  ...w,
  created_at: "2026-01-01T00:00:00Z",
  updated_at: w.last_used_at,
  owner_avatar_url: "",
  organization_id: w.organization_id ?? "00000000-0000-0000-0000-000000000001",
  template_icon: "",
  template_allow_user_cancel_workspace_jobs: true,
  template_active_version_id: "tpl-version-1",
  template_require_active_version: false,
  automatic_updates: "never",
  allow_renames: false,
  favorite: false,
  next_start_at: null,
});

export function coderWorkspaces(options: { tokens: string[]; workspaces?: CoderWorkspace[] }): CoderWorkspaces {
  const workspaces = new Map((options.workspaces ?? []).map((w) => [w.id, w]));
  const tokens = new Set(options.tokens);
  const requests: string[] = [];
  const unreadableTemplates = new Set<string>();
  let failure: { status: number; times: number } | null = null;
  let limited: { times: number; headers: Record<string, string> } | null = null;
  let delay = 0;

  function list(res: http.ServerResponse, url: URL) {
    const parsed = parseWorkspaceSearch(url.searchParams.get("q") ?? "");
    const limit = pageParam(url, "limit");
    const offset = pageParam(url, "offset");
    const invalid = [limit, offset].filter((x): x is Validation => typeof x !== "number");
    if (invalid.length)
      return sendJson(res, 400, { message: "Query parameters have invalid values.", validations: invalid });
    if ("errors" in parsed) {
      return sendJson(res, 400, { message: "Invalid workspace search query.", validations: parsed.errors });
    }
    // Started workspaces first, then by owner and name; the count is every match, whatever the page.
    const started = (w: CoderWorkspace) =>
      w.latest_build.transition === "start" && w.latest_build.status === "running" ? 0 : 1;
    const all = [...workspaces.values()]
      .filter((w) => !w.deleted && matches(w, parsed.values))
      .sort(
        (a, b) =>
          started(a) - started(b) ||
          a.owner_name.toLowerCase().localeCompare(b.owner_name.toLowerCase()) ||
          a.name.toLowerCase().localeCompare(b.name.toLowerCase()),
      );
    const from = offset as number;
    const page = (limit as number) > 0 ? all.slice(from, from + (limit as number)) : all.slice(from);
    // Rows whose template the caller cannot read are dropped from the page after the query (convertWorkspaces).
    const readable = page.filter((w) => !unreadableTemplates.has(w.template_id));
    sendJson(res, 200, { workspaces: readable.map(publicShape), count: all.length });
  }

  function one(res: http.ServerResponse, url: URL, id: string) {
    if (!UUID.test(id)) return sendCoderError(res, 400, `Invalid UUID "${id}".`, `invalid UUID length: ${id.length}`);
    const w = workspaces.get(id);
    if (!w) return sendCoderError(res, 404, "Resource not found or you do not have access to this resource");
    const raw = url.searchParams.get("include_deleted");
    if (raw !== null && raw !== "true" && raw !== "false") {
      return sendCoderError(res, 400, `Invalid boolean value "${raw}" for "include_deleted" query param.`);
    }
    if (w.deleted && raw !== "true") {
      return sendCoderError(
        res,
        410,
        `Workspace "${id}" was deleted, you can view this workspace by specifying '?include_deleted=true' and trying again.`,
      );
    }
    if (unreadableTemplates.has(w.template_id)) {
      return sendCoderError(
        res,
        403,
        "Forbidden.",
        "You don't have permission to view this content. If you believe this is a mistake, please contact your administrator or try signing in with different credentials.",
      );
    }
    sendJson(res, 200, publicShape(w));
  }

  const handler: CoderHandler = async (req, res, url) => {
    if (req.method !== "GET" || !url.pathname.startsWith("/api/v2/workspaces")) return false;
    const rest = url.pathname.slice("/api/v2/workspaces".length);
    if (rest !== "" && !/^\/[^/]+$/.test(rest)) return false;
    requests.push(`${url.pathname}${url.search}`);
    if (delay > 0) await new Promise((r) => setTimeout(r, delay));
    if (res.destroyed) return true;
    if (limited && limited.times > 0) {
      limited.times -= 1;
      res.writeHead(429, { "content-type": "application/json", ...limited.headers });
      res.end(JSON.stringify({ message: "You've been rate limited for sending more than 512 requests in 1m0s." }));
      return true;
    }
    if (failure && failure.times > 0) {
      failure.times -= 1;
      sendCoderError(res, failure.status, "An internal error occurred.", "injected by the test");
      return true;
    }
    const token = sessionToken(req);
    if (!token) sendCoderError(res, 401, "Cookie or header must be provided.");
    else if (!tokens.has(token)) sendCoderError(res, 401, "API key is invalid.");
    else if (rest === "") list(res, url);
    else one(res, url, decodeURIComponent(rest.slice(1)));
    return true;
  };

  return {
    handler,
    workspaces,
    remove: (id, completedAt = new Date().toISOString()) => {
      const w = workspaces.get(id);
      const build = { status: "deleted", transition: "delete", job: { completed_at: completedAt } } as const;
      if (w) workspaces.set(id, { ...w, deleted: true, latest_build: build });
    },
    unreadableTemplates,
    rateLimitNext: (times, headers) => (limited = { times, headers }),
    failNext: (status, times = 1) => (failure = { status, times }),
    delayMs: (ms) => (delay = ms),
    requests,
  };
}
