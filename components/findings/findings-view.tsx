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
import { AGENT_OPTIONS } from "@/components/agents/agent-label";
import { DebouncedInput } from "@/components/ui/debounced-input";
import { ErrorPanel } from "@/components/ui/error-panel";
import { ExportLink } from "@/components/ui/export-link";
import { Panel } from "@/components/ui/panel";
import { Skeleton } from "@/components/ui/states";
import { useSetSearchParams } from "@/components/ui/use-set-search-params";
import { FindingList } from "./finding-item";

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
      <button type="button" aria-pressed={!severity} onClick={() => onPick(undefined)}>
        All {counts ? formatCount(counts.total) : ""}
      </button>
      {SEVERITY_OPTIONS.map((s) => (
        <button key={s} type="button" aria-pressed={severity === s} data-severity={s} onClick={() => onPick(s)}>
          {s} {counts ? formatCount(counts.bySeverity[s]) : ""}
        </button>
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
      <div className="page-head">
        <div>
          <h1>Findings</h1>
          <p className="sub">
            What needs attention across the fleet, and what to do about each. Identical findings of one workspace (its
            orphaned folders, its large sessions of one agent) are one row.
          </p>
        </div>
        <div className="spacer" />
        <Link href="/findings/rules" className="button">
          Rules and thresholds
        </Link>
      </div>
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
        <div className="stack" style={{ gap: 10, marginBottom: 12 }}>
          <SeverityTabs counts={first?.counts ?? null} severity={state.severity} onPick={(s) => set({ severity: s })} />
          <div className="row" role="search" aria-label="Filter the findings">
            <select
              aria-label="Filter by rule"
              value={state.rule ?? ""}
              onChange={(e) => set({ rule: e.target.value })}
            >
              <option value="">All rules</option>
              {rules.data?.rules.map((r) => (
                <option key={r.id} value={r.id}>
                  {r.title}
                </option>
              ))}
            </select>
            <select
              aria-label="Filter by agent"
              value={state.agent ?? ""}
              onChange={(e) => set({ agent: e.target.value })}
            >
              <option value="">All agents</option>
              {AGENT_OPTIONS.map((a) => (
                <option key={a.id} value={a.id}>
                  {a.label}
                </option>
              ))}
            </select>
            <DebouncedInput
              type="text"
              placeholder="Owner"
              aria-label="Filter by owner"
              value={state.owner ?? ""}
              onChange={setOwner}
              style={{ width: 130 }}
            />
            <DebouncedInput
              type="text"
              placeholder="Template"
              aria-label="Filter by template"
              value={state.template ?? ""}
              onChange={setTemplate}
              style={{ width: 150 }}
            />
            {state.workspace ? (
              <button type="button" className="button" onClick={() => set({ workspace: undefined })}>
                Workspace {state.workspace} ✕
              </button>
            ) : null}
            {filtered ? (
              <button
                type="button"
                className="button"
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
              </button>
            ) : null}
          </div>
        </div>
        {query.isError ? <ErrorPanel error={query.error} onRetry={() => query.refetch()} /> : null}
        {query.isPending ? <Skeleton height={300} /> : null}
        {query.isSuccess && rows.length === 0 ? (
          <p className="empty">{filtered ? "No finding matches these filters." : "Nothing needs attention."}</p>
        ) : null}
        {rows.length > 0 ? <FindingList findings={rows} /> : null}
        {query.hasNextPage ? (
          <button
            type="button"
            className="button"
            style={{ marginTop: 12 }}
            disabled={query.isFetchingNextPage}
            onClick={() => query.fetchNextPage()}
          >
            {query.isFetchingNextPage ? "Loading…" : `Show the next ${FINDINGS_PAGE_SIZE} rows`}
          </button>
        ) : null}
      </Panel>
    </div>
  );
}
