"use client";

import { useQuery } from "@tanstack/react-query";
import { useSearchParams } from "next/navigation";
import { useCallback, useMemo } from "react";
import { exportPaths, workspaceListExportParams } from "@/lib/validations/export";
import { parseWorkspaceListSearchParams, workspaceListEntries } from "@/lib/validations/workspaces";
import { workspaceListOptions, type WorkspaceListPatch } from "@/lib/query/workspaces";
import { useSignedInUser } from "@/components/auth/caller-context";
import { ExportLink } from "@/components/ui/export-link";
import { Panel } from "@/components/ui/panel";
import { QueryView } from "@/components/ui/states";
import { currentSearchParams, useSetSearchParams } from "@/components/ui/use-set-search-params";
import { WorkspaceFilters } from "./workspace-filters";
import { SetGrowthLine } from "./set-growth";
import { WorkspacesTable } from "./workspaces-table";
import { PageHeader } from "@/components/ui/page-header";

export function WorkspacesView() {
  const searchParams = useSearchParams();
  // Parsed once per URL; onChange keeps its identity for good (the filters' debounce depends on it).
  const state = useMemo(() => parseWorkspaceListSearchParams(searchParams), [searchParams]);
  const setParams = useSetSearchParams();
  const query = useQuery(workspaceListOptions(state));
  const onChange = useCallback(
    (patch: WorkspaceListPatch) => {
      // From the URL as it is now, not the last render's state: a second click before the re-render builds on the first.
      const current = parseWorkspaceListSearchParams(currentSearchParams());
      setParams(workspaceListEntries({ ...current, ...(typeof patch === "function" ? patch(current) : patch) }));
    },
    [setParams],
  );
  const member = useSignedInUser()?.role === "member";
  const filtered = Boolean(
    state.q || state.owner || state.template || state.organization || state.group || state.agent,
  );
  return (
    <div className="stack">
      <PageHeader
        title={member ? "Your workspaces" : "Workspaces"}
        sub={
          member
            ? "The workspaces you own in Coder, with their storage, growth and volume forecast."
            : "Every workspace, with its storage, growth, volume forecast and status in Coder."
        }
        actionsAtEnd
        actions={
          <ExportLink
            path={exportPaths.workspaces()}
            params={workspaceListExportParams(state)}
            title="Download every page of this table, filtered and sorted as shown, as CSV"
          />
        }
      />
      <Panel>
        <div className="mb-12">
          <WorkspaceFilters state={state} teamNames={query.data?.teamFilters} onChange={onChange} />
        </div>
        {query.data?.growth ? (
          <SetGrowthLine
            growth={query.data.growth}
            of={[state.template && `Template ${state.template}`, state.owner && `Owner ${state.owner}`]
              .filter(Boolean)
              .join(", ")}
          />
        ) : null}
        <QueryView
          query={query}
          height={400}
          isEmpty={(d) => d.total === 0 && !filtered}
          empty="No workspace has reported yet."
        >
          {(data) =>
            data.total === 0 ? (
              <p className="empty">No workspace matches these filters.</p>
            ) : (
              <WorkspacesTable data={data} state={state} onChange={onChange} fetching={query.isPlaceholderData} />
            )
          }
        </QueryView>
      </Panel>
    </div>
  );
}
