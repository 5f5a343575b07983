"use client";

import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useSearchParams } from "next/navigation";
import { useCallback, useMemo } from "react";
import type { FindingCounts } from "@/lib/db/queries/findings";
import { exportPaths } from "@/lib/validations/export";
import { parseFindingsSearchParams, SEVERITY_OPTIONS, type FindingsState } from "@/lib/validations/findings";
import { findingsListOptions, FINDINGS_PAGE_SIZE, rulesOptions } from "@/lib/query/findings";
import { formatCount, formatCountOf } from "@/lib/format/numbers";
import { AgentFilter } from "@/components/agents/agent-filter";
import { OwnerTemplateFilters } from "@/components/ui/owner-template-filters";
import { Select } from "@/components/ui/select";
import { ErrorPanel } from "@/components/ui/error-panel";
import { ExportLink } from "@/components/ui/export-link";
import { Panel } from "@/components/ui/panel";
import { Skeleton } from "@/components/ui/states";
import { useSetSearchParams } from "@/components/ui/use-set-search-params";
import { FindingList } from "./finding-item";
import { FindingsByRule } from "./findings-by-rule";
import { FindingsByTemplate } from "./findings-by-template";
import { PageHeader } from "@/components/ui/page-header";
import { Button } from "@/components/ui/button";

/** "1,565 findings in 412 rows" for the severity shown (all of them when none is picked). */
function countLine(counts: FindingCounts, severity: FindingsState["severity"]): string {
  const rules = counts.byRule.filter((r) => !severity || r.severity === severity);
  const findings = rules.reduce((s, r) => s + r.count, 0);
  const rows = rules.reduce((s, r) => s + r.rows, 0);
  return findings === rows
    ? formatCountOf(findings, "finding")
    : `${formatCountOf(findings, "finding")} in ${formatCountOf(rows, "row")}`;
}

/** Severity tabs with their counts: with no other filter, the overview's counts. */
function SeverityTabs({
  counts,
  severity,
  onPick,
}: {
  counts: FindingCounts | null;
  severity: FindingsState["severity"];
  onPick: (s: FindingsState["severity"]) => void;
}) {
  return (
    <div
      className="segmented"
      role="group"
      aria-label="Severity"
      data-testid="severity-counts"
      style={{ alignSelf: "flex-start", maxWidth: "100%", flexWrap: "wrap" }}
    >
      <Button variant="bare" aria-pressed={!severity} onClick={() => onPick(undefined)}>
        All {counts ? formatCount(counts.total) : ""}
      </Button>
      {SEVERITY_OPTIONS.map((s) => (
        <Button key={s} variant="bare" aria-pressed={severity === s} data-severity={s} onClick={() => onPick(s)}>
          {s} {counts ? formatCount(counts.bySeverity[s]) : ""}
        </Button>
      ))}
    </div>
  );
}

export function FindingsView() {
  const searchParams = useSearchParams();
  // Parsed once per URL so onChange keeps its identity while the URL does (the text filters' debounce depends on it).
  const state = useMemo(() => parseFindingsSearchParams(searchParams), [searchParams]);
  const setParams = useSetSearchParams();
  const set = useCallback(
    (patch: Partial<Record<keyof FindingsState, string | undefined>>) => setParams(patch),
    [setParams],
  );
  const setOwner = useCallback((owner: string) => set({ owner }), [set]);
  const setTemplate = useCallback((template: string) => set({ template }), [set]);
  const query = useInfiniteQuery(findingsListOptions(state));
  const rules = useQuery(rulesOptions());
  const first = query.data?.pages[0];
  const rows = query.data?.pages.flatMap((p) => p.findings) ?? [];
  const filtered = Object.keys(state).length > 0;
  return (
    <div className="stack">
      <PageHeader
        title="Findings"
        sub={
          <>
            What needs attention across the fleet, and what to do about each. Identical findings of one workspace (its
            orphaned folders, its large sessions of one agent) are one row.
          </>
        }
        actionsAtEnd
        actions={
          <>
            <Link href="/findings/rules" className="button">
              Rules and thresholds
            </Link>
          </>
        }
      />
      <Panel
        title={first?.counts ? countLine(first.counts, state.severity) : "Findings"}
        actions={
          <ExportLink
            path={exportPaths.findings()}
            params={state}
            title="Download every row under these filters as CSV"
          />
        }
      >
        <div className="stack roomy mb-12">
          <SeverityTabs counts={first?.counts ?? null} severity={state.severity} onPick={(s) => set({ severity: s })} />
          <div className="row" role="search" aria-label="Filter the findings">
            <Select
              aria-label="Filter by rule"
              value={state.rule ?? ""}
              options={[
                { value: "", label: "All rules" },
                ...(rules.data?.rules ?? []).map((r) => ({ value: r.id, label: r.title })),
              ]}
              onValue={(rule) => set({ rule })}
            />
            <AgentFilter value={state.agent ?? ""} onValue={(agent) => set({ agent })} />
            <OwnerTemplateFilters
              owner={state.owner ?? ""}
              template={state.template ?? ""}
              onOwner={setOwner}
              onTemplate={setTemplate}
            />
            {state.workspace ? (
              <Button onClick={() => set({ workspace: undefined })}>Workspace {state.workspace} ✕</Button>
            ) : null}
            {filtered ? (
              <Button
                onClick={() =>
                  set({
                    severity: undefined,
                    rule: undefined,
                    agent: undefined,
                    owner: undefined,
                    template: undefined,
                    workspace: undefined,
                  })
                }
              >
                Clear filters
              </Button>
            ) : null}
          </div>
        </div>
        {query.isError ? <ErrorPanel error={query.error} onRetry={() => query.refetch()} /> : null}
        {query.isPending ? <Skeleton height={300} /> : null}
        {query.isSuccess && rows.length === 0 ? (
          <p className="empty">{filtered ? "No finding matches these filters." : "Nothing needs attention."}</p>
        ) : null}
        {/* Across the fleet, one row per rule to read first; a rule picked, its rows. */}
        {first?.counts && !state.rule && !state.workspace ? (
          <FindingsByRule counts={first.counts} rules={rules.data?.rules ?? []} />
        ) : null}
        {/* A rule picked, its findings by template first, each opening its workspaces' rows. */}
        {first?.byTemplate ? (
          <FindingsByTemplate
            rows={first.byTemplate}
            href={(template) => `/findings?${new URLSearchParams({ ...state, template } as Record<string, string>)}`}
          />
        ) : null}
        {rows.length > 0 ? <FindingList findings={rows} /> : null}
        {query.hasNextPage ? (
          <Button className="mt-12" pending={query.isFetchingNextPage} onClick={() => query.fetchNextPage()}>
            {query.isFetchingNextPage ? "Loading…" : `Show the next ${FINDINGS_PAGE_SIZE} rows`}
          </Button>
        ) : null}
      </Panel>
    </div>
  );
}
