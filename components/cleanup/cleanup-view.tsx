"use client";

import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { SUMMARY_JOB_STATES } from "@/lib/cleanup/job-states";
import { newRunHref } from "@/lib/cleanup/links";
import { formatCount, formatCountOf } from "@/lib/format/numbers";
import { catalogOptions, policiesOptions, runsOptions } from "@/lib/query/cleanup";
import { exportPaths } from "@/lib/validations/export";
import { policyStateText } from "@/lib/cleanup/wording";
import { agentLabel } from "@/components/agents/agent-label";
import { useIsAdmin } from "@/components/auth/caller-context";
import { Bytes } from "@/components/ui/bytes";
import { ExportLink } from "@/components/ui/export-link";
import { Panel } from "@/components/ui/panel";
import { QueryView, Skeleton } from "@/components/ui/states";
import { RelativeTime } from "@/components/ui/time";
import { describeRun, paramsText, recipeTitle, scopeText, StateBadge, stateLabel } from "./run-text";
import { PageHeader } from "@/components/ui/page-header";

function Catalog() {
  const query = useQuery(catalogOptions());
  const isAdmin = useIsAdmin();
  return (
    <QueryView query={query} height={300}>
      {(c) => (
        <>
          <div className="table-wrap">
            <table className="table" data-testid="recipes">
              <thead>
                <tr>
                  <th>Recipe</th>
                  <th>Agent</th>
                  <th>Unit</th>
                  <th>Default</th>
                  <th className="num">Frees fleet-wide now</th>
                  {isAdmin ? <th /> : null}
                </tr>
              </thead>
              <tbody>
                {c.recipes.map((r) => (
                  <tr key={r.id}>
                    <td>
                      <div className="cell-main">{r.title}</div>
                      <div className="cell-sub muted small">{r.description}</div>
                    </td>
                    <td>{agentLabel(r.agent)}</td>
                    <td className="small">{r.unit}</td>
                    <td className="small nowrap">
                      {r.defaultAction}, older than {r.defaultOlderThanDays} d
                    </td>
                    <td className="num">
                      <Bytes value={r.fleet.bytes} estimate={r.fleet.estimate} />
                      <div className="muted small">{formatCountOf(r.fleet.workspaces, "workspace")}</div>
                    </td>
                    {isAdmin ? (
                      <td>
                        <Link className="button" href={newRunHref({ recipe: r.id })}>
                          New run
                        </Link>
                      </td>
                    ) : null}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <p className="muted small">
            No recipe for: {c.noSafeUnit.map((n) => `${agentLabel(n.agent)} (${n.reason})`).join(" ")}
          </p>
        </>
      )}
    </QueryView>
  );
}

function Runs() {
  const query = useInfiniteQuery(runsOptions());
  if (query.isPending) return <Skeleton height={200} />;
  if (query.isError) return <p className="error-message">{query.error.message}</p>;
  const runs = query.data.pages.flatMap((p) => p.runs);
  if (runs.length === 0) return <p className="muted">No cleanup has run yet.</p>;
  return (
    <>
      <div className="table-wrap">
        <table className="table" data-testid="runs">
          <thead>
            <tr>
              <th>Started</th>
              <th>Cleanup</th>
              <th>By</th>
              <th>State</th>
              <th>Progress</th>
              <th className="num">Freed</th>
            </tr>
          </thead>
          <tbody>
            {runs.map((r) => (
              <tr key={r.id}>
                <td>
                  <Link href={`/cleanup/runs/${r.id}`}>
                    <RelativeTime value={r.createdAt} />
                  </Link>
                </td>
                <td>
                  <Link href={`/cleanup/runs/${r.id}`} className="cell-main">
                    {describeRun(r)}
                  </Link>
                  <div className="muted small">{paramsText(r)}</div>
                </td>
                <td className="small">{r.createdBy}</td>
                <td>
                  <StateBadge state={r.status} />
                </td>
                <td style={{ minWidth: 160 }}>
                  <div className="bar">
                    <span
                      style={{ width: `${r.progress.jobs ? (100 * r.progress.finished) / r.progress.jobs : 0}%` }}
                    />
                  </div>
                  <span className="muted small">
                    {formatCount(r.progress.finished)}/{formatCountOf(r.progress.jobs, "job")}
                    {SUMMARY_JOB_STATES.filter((s) => r.progress.states[s])
                      .map((s) => ` · ${formatCount(r.progress.states[s])} ${stateLabel(s)}`)
                      .join("")}
                  </span>
                </td>
                <td className="num">
                  <Bytes value={r.progress.bytesFreed} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {query.hasNextPage ? (
        <button
          type="button"
          className="button"
          disabled={query.isFetchingNextPage}
          onClick={() => void query.fetchNextPage()}
        >
          Older runs
        </button>
      ) : null}
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
            <table className="table" data-testid="policies">
              <thead>
                <tr>
                  <th>Policy</th>
                  <th>Recipe</th>
                  <th>Scope</th>
                  <th>Schedule</th>
                  <th>State</th>
                  <th>Next run</th>
                  <th>Last run</th>
                </tr>
              </thead>
              <tbody>
                {policies.map((p) => (
                  <tr key={p.id}>
                    <td>
                      <Link href={`/cleanup/policies/${p.id}`} className="cell-main">
                        {p.name}
                      </Link>
                    </td>
                    <td>{recipeTitle(p.recipe)}</td>
                    <td className="small">{scopeText(p.scope)}</td>
                    <td>{p.enabled ? p.scheduleText : "disabled"}</td>
                    <td data-testid="policy-state">{policyStateText(p)}</td>
                    <td>{p.held ? "held" : p.nextRunAt ? <RelativeTime value={p.nextRunAt} /> : "—"}</td>
                    <td>
                      {p.lastRunId ? (
                        <Link href={`/cleanup/runs/${p.lastRunId}`}>
                          <RelativeTime value={p.lastRunAt} />
                        </Link>
                      ) : (
                        "never"
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
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
    </div>
  );
}
