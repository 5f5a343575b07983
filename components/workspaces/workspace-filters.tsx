"use client";

import type { WorkspaceListState } from "@/lib/query/workspaces";
import { CODER_STATUSES, type CoderStatus } from "@/lib/coder/status";
import { AGENT_OPTIONS } from "@/components/agents/agent-label";
import { DebouncedInput } from "@/components/ui/debounced-input";

export function WorkspaceFilters({
  state,
  onChange,
}: {
  state: WorkspaceListState;
  onChange: (patch: Partial<WorkspaceListState>) => void;
}) {
  const filtered =
    state.q || state.owner || state.template || state.agent || state.status || state.dormant || state.reporting;
  return (
    <div className="row" role="search">
      <DebouncedInput
        type="search"
        placeholder="Search name, owner, template…"
        aria-label="Search workspaces"
        value={state.q}
        onChange={(q) => onChange({ q, page: 1 })}
        style={{ width: 260 }}
      />
      <DebouncedInput
        type="text"
        placeholder="Owner"
        aria-label="Filter by owner"
        value={state.owner}
        onChange={(owner) => onChange({ owner, page: 1 })}
        style={{ width: 130 }}
      />
      <DebouncedInput
        type="text"
        placeholder="Template"
        aria-label="Filter by template"
        value={state.template}
        onChange={(template) => onChange({ template, page: 1 })}
        style={{ width: 150 }}
      />
      <select
        aria-label="Filter by agent"
        value={state.agent}
        onChange={(e) => onChange({ agent: e.target.value, page: 1 })}
      >
        <option value="">All agents</option>
        {AGENT_OPTIONS.map((a) => (
          <option key={a.id} value={a.id}>
            {a.label}
          </option>
        ))}
      </select>
      <select
        aria-label="Filter by status in Coder"
        value={state.status}
        onChange={(e) => onChange({ status: e.target.value as CoderStatus | "", page: 1 })}
      >
        <option value="">Any status in Coder</option>
        {CODER_STATUSES.map((s) => (
          <option key={s} value={s}>
            {s === "deleted" ? "deleted (hidden otherwise)" : s}
          </option>
        ))}
      </select>
      <select
        aria-label="Filter by dormancy in Coder"
        value={state.dormant}
        onChange={(e) => onChange({ dormant: e.target.value as "true" | "false" | "", page: 1 })}
      >
        <option value="">Dormant or not</option>
        <option value="true">Dormant</option>
        <option value="false">Not dormant</option>
      </select>
      <select
        aria-label="Filter by reporting"
        value={state.reporting}
        onChange={(e) => onChange({ reporting: e.target.value as "yes" | "no" | "", page: 1 })}
      >
        <option value="">Reporting or not</option>
        <option value="yes">Reporting</option>
        <option value="no">In Coder, never reported</option>
      </select>
      {filtered ? (
        <button
          type="button"
          className="button"
          onClick={() =>
            onChange({ q: "", owner: "", template: "", agent: "", status: "", dormant: "", reporting: "", page: 1 })
          }
        >
          Clear filters
        </button>
      ) : null}
    </div>
  );
}
