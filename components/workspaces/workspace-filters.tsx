"use client";

import type { WorkspaceListState } from "@/lib/query/workspaces";
import { CODER_STATUSES } from "@/lib/coder/status";
import { AgentFilter } from "@/components/agents/agent-filter";
import { DebouncedInput } from "@/components/ui/debounced-input";
import { OwnerTemplateFilters } from "@/components/ui/owner-template-filters";
import { Select } from "@/components/ui/select";
import { Button } from "@/components/ui/button";

const STATUSES = [
  { value: "", label: "Any status in Coder" },
  ...CODER_STATUSES.map((s) => ({ value: s, label: s === "deleted" ? "deleted (hidden otherwise)" : s })),
];
const DORMANCY = [
  { value: "", label: "Dormant or not" },
  { value: "true", label: "Dormant" },
  { value: "false", label: "Not dormant" },
];
const REPORTING = [
  { value: "", label: "Reporting or not" },
  { value: "yes", label: "Reporting" },
  { value: "no", label: "In Coder, never reported" },
];
/** The selects of what Coder says (the options are the values the list's schema accepts). */
const CODER_FILTERS = [
  { key: "status", name: "Filter by status in Coder", options: STATUSES },
  { key: "dormant", name: "Filter by dormancy in Coder", options: DORMANCY },
  { key: "reporting", name: "Filter by reporting", options: REPORTING },
] as const;

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
        className="w-260"
      />
      <OwnerTemplateFilters
        owner={state.owner}
        template={state.template}
        onOwner={(owner) => onChange({ owner, page: 1 })}
        onTemplate={(template) => onChange({ template, page: 1 })}
      />
      <AgentFilter value={state.agent} onValue={(agent) => onChange({ agent, page: 1 })} />
      {CODER_FILTERS.map((f) => (
        <Select
          key={f.key}
          aria-label={f.name}
          value={state[f.key]}
          options={f.options}
          onValue={(v) => onChange({ [f.key]: v, page: 1 })}
        />
      ))}
      {filtered ? (
        <Button
          onClick={() =>
            onChange({ q: "", owner: "", template: "", agent: "", status: "", dormant: "", reporting: "", page: 1 })
          }
        >
          Clear filters
        </Button>
      ) : null}
    </div>
  );
}
