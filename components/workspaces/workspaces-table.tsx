"use client";

import { flexRender, getCoreRowModel, useReactTable, type SortingState } from "@tanstack/react-table";
import type { WorkspaceList } from "@/lib/db/queries/workspace-list";
import type { WorkspaceSortColumn } from "@/lib/validations/workspaces";
import type { WorkspaceListState } from "@/lib/query/workspaces";
import { formatCount } from "@/lib/format/numbers";
import { defaultDir, PAGE_SIZES } from "@/lib/validations/workspaces";
import { workspaceColumns, type ColumnMeta } from "./workspace-columns";

/** Server-sorted, server-paged table: react-table only renders; the URL holds sort and page. */
export function WorkspacesTable({
  data,
  state,
  onChange,
  fetching,
}: {
  data: WorkspaceList;
  state: WorkspaceListState;
  onChange: (patch: Partial<WorkspaceListState>) => void;
  fetching: boolean;
}) {
  const sorting: SortingState = [{ id: state.sort, desc: state.dir === "desc" }];
  const pageCount = Math.max(1, Math.ceil(data.total / state.pageSize));
  // TanStack Table hands back fresh functions each render; nothing here is memoized (no React Compiler).
  // eslint-disable-next-line react-hooks/incompatible-library
  const table = useReactTable({
    data: data.rows,
    columns: workspaceColumns,
    getCoreRowModel: getCoreRowModel(),
    getRowId: (r) => r.id,
    manualSorting: true,
    manualPagination: true,
    pageCount,
    state: { sorting, pagination: { pageIndex: state.page - 1, pageSize: state.pageSize } },
  });

  const sortBy = (id: string) => {
    const column = id as WorkspaceSortColumn;
    const dir = state.sort === column ? (state.dir === "asc" ? "desc" : "asc") : defaultDir(column);
    onChange({ sort: column, dir, page: 1 });
  };

  const first = data.total === 0 ? 0 : (state.page - 1) * state.pageSize + 1;
  const last = Math.min(data.total, state.page * state.pageSize);

  return (
    <>
      <div className="table-wrap" aria-busy={fetching}>
        <table className="table" data-testid="workspaces-table" style={{ opacity: fetching ? 0.6 : 1 }}>
          <thead>
            {table.getHeaderGroups().map((hg) => (
              <tr key={hg.id}>
                {hg.headers.map((h) => {
                  const numeric = (h.column.columnDef.meta as ColumnMeta | undefined)?.numeric;
                  const active = state.sort === h.column.id;
                  const label = flexRender(h.column.columnDef.header, h.getContext());
                  return (
                    <th
                      key={h.id}
                      className={numeric ? "num" : undefined}
                      aria-sort={active ? (state.dir === "asc" ? "ascending" : "descending") : undefined}
                    >
                      {h.column.getCanSort() ? (
                        <button
                          type="button"
                          className="sort-button"
                          data-active={active}
                          onClick={() => sortBy(h.column.id)}
                        >
                          {label}
                          <span aria-hidden>{active ? (state.dir === "asc" ? "▲" : "▼") : "↕"}</span>
                        </button>
                      ) : (
                        label
                      )}
                    </th>
                  );
                })}
              </tr>
            ))}
          </thead>
          <tbody>
            {table.getRowModel().rows.map((row) => (
              <tr key={row.id}>
                {row.getVisibleCells().map((cell) => (
                  <td
                    key={cell.id}
                    className={(cell.column.columnDef.meta as ColumnMeta | undefined)?.numeric ? "num" : undefined}
                  >
                    {flexRender(cell.column.columnDef.cell, cell.getContext())}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div className="pager" role="navigation" aria-label="Pages">
        <span data-testid="row-count">
          {formatCount(first)}–{formatCount(last)} of {formatCount(data.total)}
        </span>
        <label className="field">
          Rows
          <select value={state.pageSize} onChange={(e) => onChange({ pageSize: Number(e.target.value), page: 1 })}>
            {PAGE_SIZES.map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
        </label>
        <button
          type="button"
          className="button"
          disabled={state.page <= 1}
          onClick={() => onChange({ page: state.page - 1 })}
        >
          ← Previous
        </button>
        <span>
          Page {state.page} of {formatCount(pageCount)}
        </span>
        <button
          type="button"
          className="button"
          disabled={state.page >= pageCount}
          onClick={() => onChange({ page: state.page + 1 })}
        >
          Next →
        </button>
      </div>
    </>
  );
}
