"use client";

import type { WorkspaceListState } from "@/lib/query/workspaces";
import { AGENT_OPTIONS } from "@/components/agents/agent-label";
import { DebouncedInput } from "@/components/ui/debounced-input";

export function WorkspaceFilters({
  state,
  onChange,
}: {
  state: WorkspaceListState;
  onChange: (patch: Partial<WorkspaceListState>) => void;
}) {
  const filtered = state.q || state.owner || state.template || state.agent;
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
      {filtered ? (
        <button
          type="button"
          className="button"
          onClick={() => onChange({ q: "", owner: "", template: "", agent: "", page: 1 })}
        >
          Clear filters
        </button>
      ) : null}
    </div>
  );
}
