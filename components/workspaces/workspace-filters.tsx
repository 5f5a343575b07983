"use client";

import type { WorkspaceListState } from "@/lib/query/workspaces";
import { CODER_STATUSES } from "@/lib/coder/status";
import { NO_FILTERS } from "@/lib/validations/workspaces";
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

/** The team filters a link brings (from the usage by organization or group): shown by name, each removable. */
const TEAM_FILTERS = [
  { key: "organization", label: "Organization" },
  { key: "group", label: "Group" },
] as const;
type TeamNames = { organization: string | null; group: string | null };

const CLEARED: Partial<WorkspaceListState> = { ...NO_FILTERS, page: 1 };

function TeamFilters({
  state,
  names,
  onChange,
}: {
  state: WorkspaceListState;
  names?: TeamNames;
  onChange: (patch: Partial<WorkspaceListState>) => void;
}) {
  return TEAM_FILTERS.map((f) =>
    state[f.key] ? (
      <Button
        key={f.key}
        onClick={() => onChange({ [f.key]: "", page: 1 })}
        title={`Show every ${f.label.toLowerCase()}'s workspaces`}
        data-testid={`team-filter-${f.key}`}
      >
        {f.label}: {names?.[f.key] ?? state[f.key]} <span aria-label="remove">×</span>
      </Button>
    ) : null,
  );
}

export function WorkspaceFilters({
  state,
  teamNames,
  onChange,
}: {
  state: WorkspaceListState;
  /** The names of the organization and group filtered by, once the list has answered. */
  teamNames?: TeamNames;
  onChange: (patch: Partial<WorkspaceListState>) => void;
}) {
  const filtered =
    state.q ||
    state.owner ||
    state.template ||
    state.organization ||
    state.group ||
    state.agent ||
    state.status ||
    state.dormant ||
    state.reporting;
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
      <TeamFilters state={state} names={teamNames} onChange={onChange} />
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
      {filtered ? <Button onClick={() => onChange(CLEARED)}>Clear filters</Button> : null}
    </div>
  );
}
