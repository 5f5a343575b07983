import type { WorkspaceSortColumn } from "@/lib/db/queries/workspaces";
import { toGetter, type SearchParamsLike } from "@/lib/validations/search-params";
import type { WorkspaceListState } from "@/lib/query/workspaces";

// The workspaces table's URL state: ?q=&owner=&template=&agent=&sort=&dir=&page=&pageSize=
// Defaults are left out of the URL; anything invalid falls back to its default.

export const SORT_COLUMNS = [
  "name",
  "owner",
  "template",
  "total",
  "change7d",
  "largestAgent",
  "volumeUsed",
  "daysUntilFull",
  "lastReport",
] as const satisfies readonly WorkspaceSortColumn[];

// Fails to compile if the API gains a sort column this list lacks.
type Missing = Exclude<WorkspaceSortColumn, (typeof SORT_COLUMNS)[number]>;
const complete: Missing extends never ? true : Missing = true;
void complete;

export const PAGE_SIZES = [25, 50, 100] as const;

export const DEFAULT_LIST_STATE: WorkspaceListState = {
  q: "",
  owner: "",
  template: "",
  agent: "",
  sort: "total",
  dir: "desc",
  page: 1,
  pageSize: 50,
};

/** The natural first direction of each column: biggest, newest and soonest first where that is what matters. */
export function defaultDir(sort: WorkspaceSortColumn): "asc" | "desc" {
  return sort === "name" || sort === "owner" || sort === "template" || sort === "largestAgent" || sort === "daysUntilFull"
    ? "asc"
    : "desc";
}

function text(v: string | null, max = 200): string {
  return (v ?? "").trim().slice(0, max);
}

export function parseWorkspaceListSearchParams(
  params: SearchParamsLike | Record<string, string | string[] | undefined>,
): WorkspaceListState {
  const p = toGetter(params);
  const sortRaw = p.get("sort");
  const sort = (SORT_COLUMNS as readonly string[]).includes(sortRaw ?? "") ? (sortRaw as WorkspaceSortColumn) : DEFAULT_LIST_STATE.sort;
  const dirRaw = p.get("dir");
  const dir = dirRaw === "asc" || dirRaw === "desc" ? dirRaw : sortRaw ? defaultDir(sort) : DEFAULT_LIST_STATE.dir;
  const page = Number.parseInt(p.get("page") ?? "", 10);
  const size = Number.parseInt(p.get("pageSize") ?? "", 10);
  return {
    q: text(p.get("q")),
    owner: text(p.get("owner")),
    template: text(p.get("template")),
    agent: text(p.get("agent"), 100),
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
    agent: state.agent || null,
    sort: state.sort === d.sort ? null : state.sort,
    dir: state.dir === (state.sort === d.sort ? d.dir : defaultDir(state.sort)) ? null : state.dir,
    page: state.page === 1 ? null : String(state.page),
    pageSize: state.pageSize === d.pageSize ? null : String(state.pageSize),
  };
}
