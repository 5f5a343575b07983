"use client";

import { useQuery } from "@tanstack/react-query";
import { useSearchParams } from "next/navigation";
import { exportPaths } from "@/lib/validations/export";
import { parseFindingsSearchParams, SEVERITY_OPTIONS } from "@/lib/validations/findings";
import { findingsListOptions, rulesOptions } from "@/lib/query/findings";
import { formatCount } from "@/lib/format/numbers";
import { ExportLink } from "@/components/ui/export-link";
import { Panel } from "@/components/ui/panel";
import { QueryView } from "@/components/ui/states";
import { useSetSearchParams } from "@/components/ui/use-set-search-params";
import { FindingList } from "./finding-item";
import { RulesEditor } from "./rules-editor";

export function FindingsView() {
  const state = parseFindingsSearchParams(useSearchParams());
  const setParams = useSetSearchParams();
  const query = useQuery(findingsListOptions(state));
  const rules = useQuery(rulesOptions());
  return (
    <div className="stack">
      <div className="page-head">
        <div>
          <h1>Findings</h1>
          <p className="sub">What needs attention across the fleet, and what to do about each.</p>
        </div>
      </div>
      <Panel
        title={
          query.data
            ? `${formatCount(query.data.total)} findings${query.data.truncated ? ` (showing ${query.data.findings.length})` : ""}`
            : "Findings"
        }
        actions={
          <>
            <select
              aria-label="Filter by severity"
              value={state.severity ?? ""}
              onChange={(e) => setParams({ severity: e.target.value })}
            >
              <option value="">All severities</option>
              {SEVERITY_OPTIONS.map((s) => (
                <option key={s} value={s}>
                  {s}
                </option>
              ))}
            </select>
            <select
              aria-label="Filter by rule"
              value={state.rule ?? ""}
              onChange={(e) => setParams({ rule: e.target.value })}
            >
              <option value="">All rules</option>
              {rules.data?.rules.map((r) => (
                <option key={r.id} value={r.id}>
                  {r.title}
                </option>
              ))}
            </select>
            {state.workspace ? (
              <button type="button" className="button" onClick={() => setParams({ workspace: null })}>
                Workspace {state.workspace} ✕
              </button>
            ) : null}
            <ExportLink
              path={exportPaths.findings()}
              params={state}
              title="Download every finding under these filters as CSV"
            />
          </>
        }
      >
        <QueryView query={query} height={300}>
          {(data) =>
            data.findings.length === 0 ? (
              <p className="empty">
                {state.rule || state.severity || state.workspace
                  ? "No finding matches these filters."
                  : "Nothing needs attention."}
              </p>
            ) : (
              <FindingList findings={data.findings} />
            )
          }
        </QueryView>
      </Panel>
      <Panel title="Rules and thresholds" id="rules">
        <RulesEditor />
      </Panel>
    </div>
  );
}
