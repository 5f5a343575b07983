"use client";

import type { WorkspaceList } from "@/lib/db/queries/workspace-list";
import type { WorkspaceSortColumn } from "@/lib/validations/workspaces";
import type { WorkspaceListPatch, WorkspaceListState } from "@/lib/query/workspaces";
import { defaultDir, PAGE_SIZES } from "@/lib/validations/workspaces";
import { DataTable } from "@/components/ui/data-table";
import { DataTablePager } from "@/components/ui/data-table-pager";
import { workspaceColumns } from "./workspace-columns";

/** Server-sorted, server-paged table: react-table only renders; the URL holds sort and page. */
export function WorkspacesTable({
  data,
  state,
  onChange,
  fetching,
}: {
  data: WorkspaceList;
  state: WorkspaceListState;
  onChange: (patch: WorkspaceListPatch) => void;
  fetching: boolean;
}) {
  const onSort = (id: string) => {
    const column = id as WorkspaceSortColumn;
    onChange((current) => ({
      sort: column,
      dir: current.sort === column ? (current.dir === "asc" ? "desc" : "asc") : defaultDir(column),
      page: 1,
    }));
  };
  return (
    <>
      <DataTable
        data={data.rows}
        columns={workspaceColumns}
        rowId={(r) => r.id}
        testId="workspaces-table"
        stacked={3}
        busy={fetching}
        stale={fetching}
        sorting={{ column: state.sort, dir: state.dir, onSort }}
      />
      <DataTablePager
        page={state.page}
        pageSize={state.pageSize}
        pageSizes={PAGE_SIZES}
        total={data.total}
        onChange={onChange}
      />
    </>
  );
}
