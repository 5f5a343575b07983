import { z } from "zod";
import { CODER_STATUSES, type CoderStatus } from "@/lib/coder/status";
import { rangeQuery } from "./range";
import { toGetter, type SearchParamsInput } from "./search-params";

// The workspaces table's parameters, one schema for all readers: the JSON API validates strictly (422 on a bad
// value); the page and the browser read the same names from the URL forgivingly (anything invalid falls back
// to its default, so a hand-edited link still opens). ?q=&owner=&template=&organization=&group=&agent=&status=&dormant=&reporting=&sort=&dir=&page=&pageSize=

export const WORKSPACE_SORT_COLUMNS = [
  "name",
  "owner",
  "template",
  "total",
  "change7d",
  "largestAgent",
  "volumeUsed",
  "daysUntilFull",
  "lastReport",
] as const;
export type WorkspaceSortColumn = (typeof WORKSPACE_SORT_COLUMNS)[number];

export const PAGE_SIZES = [25, 50, 100] as const;

/** Query parameters of GET /api/v1/workspaces. */
export const workspaceListQuery = z.object({
  q: z.string().trim().max(200).optional(),
  owner: z.string().max(200).optional(),
  template: z.string().max(200).optional(),
  /** Coder's organization (its id): the workspaces in it. */
  organization: z.string().max(200).optional(),
  /** A team (a Coder group's id, or "upload:<name>"): the workspaces of its members. */
  group: z.string().max(200).optional(),
  /** Workspaces having at least one root of this agent. */
  agent: z.string().max(100).optional(),
  /** Coder's status of the workspace (its latest build's); "deleted" lists the workspaces deleted in Coder, which are left out otherwise. */
  status: z.enum([...CODER_STATUSES, ""]).optional(),
  /** "true": only workspaces dormant in Coder; "false": none of them. */
  dormant: z.enum(["true", "false", ""]).optional(),
  /** "no": workspaces Coder has that never reported (coverage); "yes": those that did. */
  reporting: z.enum(["yes", "no", ""]).optional(),
  sort: z.enum(WORKSPACE_SORT_COLUMNS).default("total"),
  dir: z.enum(["asc", "desc"]).default("desc"),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(50),
});
export type WorkspaceListQuery = z.input<typeof workspaceListQuery>;

/** The list's parameters as the URL and the API spell them, defaults filled in. */
export type WorkspaceListState = {
  q: string;
  owner: string;
  template: string;
  organization: string;
  group: string;
  agent: string;
  /** "" for every status but deleted. */
  status: CoderStatus | "";
  dormant: "true" | "false" | "";
  reporting: "yes" | "no" | "";
  sort: WorkspaceSortColumn;
  dir: "asc" | "desc";
  page: number;
  pageSize: number;
};

/** Every filter of the list off: what "Clear filters" leaves, the sort and the page size kept. */
export const NO_FILTERS = {
  q: "",
  owner: "",
  template: "",
  organization: "",
  group: "",
  agent: "",
  status: "",
  dormant: "",
  reporting: "",
} as const satisfies Partial<WorkspaceListState>;

export const DEFAULT_LIST_STATE: WorkspaceListState = {
  ...NO_FILTERS,
  sort: "total",
  dir: "desc",
  page: 1,
  pageSize: 50,
};

/** The natural first direction of each column: biggest, newest and soonest first where that is what matters. */
export function defaultDir(sort: WorkspaceSortColumn): "asc" | "desc" {
  return sort === "name" ||
    sort === "owner" ||
    sort === "template" ||
    sort === "largestAgent" ||
    sort === "daysUntilFull"
    ? "asc"
    : "desc";
}

function text(v: string | null, max = 200): string {
  return (v ?? "").trim().slice(0, max);
}

/** `v` when it is one of `allowed`, else "" (no filter). */
function oneOf<T extends string>(v: string | null, allowed: readonly T[]): T | "" {
  return (allowed as readonly string[]).includes(v ?? "") ? (v as T) : "";
}

export function parseWorkspaceListSearchParams(params: SearchParamsInput): WorkspaceListState {
  const p = toGetter(params);
  const sortRaw = p.get("sort");
  const sort = (WORKSPACE_SORT_COLUMNS as readonly string[]).includes(sortRaw ?? "")
    ? (sortRaw as WorkspaceSortColumn)
    : DEFAULT_LIST_STATE.sort;
  const dirRaw = p.get("dir");
  const dir = dirRaw === "asc" || dirRaw === "desc" ? dirRaw : sortRaw ? defaultDir(sort) : DEFAULT_LIST_STATE.dir;
  const page = Number.parseInt(p.get("page") ?? "", 10);
  const size = Number.parseInt(p.get("pageSize") ?? "", 10);
  return {
    q: text(p.get("q")),
    owner: text(p.get("owner")),
    template: text(p.get("template")),
    organization: text(p.get("organization")),
    group: text(p.get("group")),
    agent: text(p.get("agent"), 100),
    status: oneOf(p.get("status"), CODER_STATUSES),
    dormant: oneOf(p.get("dormant"), ["true", "false"] as const),
    reporting: oneOf(p.get("reporting"), ["yes", "no"] as const),
    sort,
    dir,
    page: Number.isFinite(page) && page >= 1 && page <= 100_000 ? page : 1,
    pageSize: (PAGE_SIZES as readonly number[]).includes(size) ? size : DEFAULT_LIST_STATE.pageSize,
  };
}

/** Query-string entries for a state: defaults become null (removed). */
export function workspaceListEntries(state: WorkspaceListState): Record<string, string | null> {
  const d = DEFAULT_LIST_STATE;
  return {
    q: state.q || null,
    owner: state.owner || null,
    template: state.template || null,
    organization: state.organization || null,
    group: state.group || null,
    agent: state.agent || null,
    status: state.status || null,
    dormant: state.dormant || null,
    reporting: state.reporting || null,
    sort: state.sort === d.sort ? null : state.sort,
    dir: state.dir === (state.sort === d.sort ? d.dir : defaultDir(state.sort)) ? null : state.dir,
    page: state.page === 1 ? null : String(state.page),
    pageSize: state.pageSize === d.pageSize ? null : String(state.pageSize),
  };
}

/** Query parameters of GET /api/v1/workspaces/{id}: the chart's range and how many reports of history to list. */
export const workspaceDetailQuery = z.intersection(
  rangeQuery,
  z.object({ reports: z.coerce.number().int().min(1).max(500).default(50) }),
);
