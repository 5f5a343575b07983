"use client";

import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { formatCountOf } from "@/lib/format/numbers";
import { catalogOptions, policiesOptions, runsOptions } from "@/lib/query/cleanup";
import { exportPaths } from "@/lib/validations/export";
import { agentLabel } from "@/components/agents/agent-label";
import { useIsAdmin } from "@/components/auth/caller-context";
import { Bytes } from "@/components/ui/bytes";
import { ExportLink } from "@/components/ui/export-link";
import { Panel } from "@/components/ui/panel";
import { QueryView } from "@/components/ui/states";
import { PageHeader } from "@/components/ui/page-header";
import { DataTable } from "@/components/ui/data-table";
import { DataTableMore } from "@/components/ui/data-table-pager";
import { trashWaitText } from "@/lib/cleanup/freed";
import { policyColumns, runColumns } from "./cleanup-columns";
import { OwnersPanel } from "./owners-panel";
import { ReclaimableByAgent } from "./reclaimable";
import { RecipesTable } from "./recipes-table";

function Catalog() {
  const query = useQuery(catalogOptions());
  const isAdmin = useIsAdmin();
  return (
    <QueryView query={query} height={300}>
      {(c) => (
        <div className="stack snug">
          <h3 className="small">Reclaimable by agent</h3>
          <ReclaimableByAgent agents={c.agents} />
          <p className="muted small">
            Each agent&apos;s recipes with their defaults, summed. {trashWaitText()} Caches and logs are deleted, never
            trashed: they free their space at once.
          </p>
          <h3 className="small">Recipes</h3>
          <RecipesTable recipes={c.recipes} isAdmin={isAdmin} testId="recipes" />
          <p className="muted small">
            No recipe for: {c.noSafeUnit.map((n) => `${agentLabel(n.agent)} (${n.reason})`).join(" ")}
          </p>
        </div>
      )}
    </QueryView>
  );
}

function Runs() {
  const query = useInfiniteQuery(runsOptions());
  if (query.isError) return <p className="error-message">{query.error.message}</p>;
  return (
    <>
      <DataTable
        data={query.data?.pages.flatMap((p) => p.runs) ?? []}
        columns={runColumns}
        rowId={(r) => r.id}
        testId="runs"
        stacked={3}
        loading={query.isPending}
        loadingHeight={200}
        empty={<p className="muted">No cleanup has run yet.</p>}
      />
      <DataTableMore query={query}>Older runs</DataTableMore>
    </>
  );
}

function Policies() {
  const query = useQuery(policiesOptions());
  return (
    <QueryView query={query} height={120}>
      {({ policies }) =>
        policies.length === 0 ? (
          <p className="muted">
            No standing policy: a policy runs a recipe daily or weekly by itself, once an admin confirmed what it
            removes.
          </p>
        ) : (
          <div className="stack snug">
            {policies
              .filter((p) => p.held)
              .map((p) => (
                <p key={p.id} className="notice warn" role="status" data-testid="policy-held">
                  Policy <Link href={`/cleanup/policies/${p.id}`}>{p.name}</Link> is held: its scheduled run would have
                  removed <Bytes value={p.held!.bytes} /> from {formatCountOf(p.held!.workspaces, "workspace")}, far
                  above what was confirmed. It waits for an admin to confirm the new figure.
                </p>
              ))}
            <DataTable data={policies} columns={policyColumns} rowId={(p) => p.id} testId="policies" wrap={false} />
          </div>
        )
      }
    </QueryView>
  );
}

/** /cleanup: the recipes and what each frees now, the runs with their progress, and the standing policies. */
export function CleanupView() {
  const isAdmin = useIsAdmin();
  return (
    <div className="stack">
      <PageHeader
        title="Cleanup"
        sub={
          <>
            Free space across the fleet: each workspace&apos;s reporter picks up its jobs when it calls in and acts on
            whole units only, skipping anything recent, open or protected by its owner.
          </>
        }
        actions={
          <>
            {isAdmin ? (
              <Link className="button primary" href="/cleanup/new">
                New cleanup
              </Link>
            ) : null}
          </>
        }
      />
      <Panel
        title="Recipes"
        actions={
          <ExportLink path={exportPaths.cleanupRecipes()} title="Download the recipes and what each frees now as CSV" />
        }
      >
        <Catalog />
      </Panel>
      <Panel title="Runs" actions={<ExportLink path={exportPaths.cleanupRuns()} title="Download every run as CSV" />}>
        <Runs />
      </Panel>
      <Panel
        title="Policies"
        actions={
          <>
            <ExportLink path={exportPaths.cleanupPolicies()} title="Download every policy as CSV" />
            {isAdmin ? (
              <Link className="button" href="/cleanup/policies/new">
                New policy
              </Link>
            ) : null}
          </>
        }
      >
        <Policies />
      </Panel>
      <Panel title="Owners' cleanups">
        <OwnersPanel />
      </Panel>
    </div>
  );
}
