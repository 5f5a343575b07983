"use client";

import { useQuery } from "@tanstack/react-query";
import type { ColumnDef } from "@tanstack/react-table";
import { useState } from "react";
import { reclaimableTotal, type AgentReclaimable } from "@/lib/cleanup/reclaimable";
import { TRASH_DAYS } from "@/lib/cleanup/defaults";
import type { Freed } from "@/lib/cleanup/freed";
import { catalogOptions } from "@/lib/query/cleanup";
import { agentLabel } from "@/components/agents/agent-label";
import { Bytes } from "@/components/ui/bytes";
import { column, DataTable, type DataTableSorting } from "@/components/ui/data-table";

// An agent's one reclaimable figure (what its recipes free with their defaults, fleet-wide: now, and once the
// trash expires), wherever it is shown: the overview's top agents, the agent's page and the Cleanup page. All read
// the catalog (GET /api/v1/cleanup/recipes), where it is summed once (lib/cleanup/reclaimable.ts).

/** "12 GiB now · 30 GiB in 7 days": both parts always, so a zero says which of the two is nothing. */
export function FreedSplit({ value, estimate = false }: { value: Freed; estimate?: boolean }) {
  return (
    <span className="nowrap" data-testid="freed-split">
      <Bytes value={value.nowBytes} estimate={estimate && value.nowBytes > 0} /> now
      <span className="muted">
        {" · "}
        <Bytes value={value.laterBytes} estimate={estimate && value.laterBytes > 0} /> in {value.laterDays} days
      </span>
    </span>
  );
}

/** One agent's figure from the catalog; null while it loads or when the agent has no recipe. */
export function useAgentReclaimable(agent: string): AgentReclaimable | null {
  const { data } = useQuery(catalogOptions());
  return data?.agents.find((a) => a.agent === agent) ?? null;
}

/** The overview's top agents' column: the agent's reclaimable figure, "—" for an agent no recipe cleans. */
export function ReclaimableCell({ agent }: { agent: string }) {
  const { data } = useQuery(catalogOptions());
  if (!data) return <span className="muted small">…</span>;
  const r = data.agents.find((a) => a.agent === agent);
  return (
    <span
      className="small"
      data-testid="agent-reclaimable"
      data-agent={agent}
      title="Reclaimable: what the agent's recipes free across the fleet with their defaults, now and once the trash expires"
    >
      {r ? (
        <>
          <span className="muted">reclaimable </span>
          <FreedSplit value={r} estimate={r.estimate} />
        </>
      ) : (
        <span className="muted">no recipe</span>
      )}
    </span>
  );
}

type Sortable = { column: string; dir: "asc" | "desc" };
const BY_SIZE: Sortable = { column: "total", dir: "desc" };

/**
 * A table's order kept in the page (largest figure first by default), for tables whose rows are all loaded: the
 * columns with a key get a sort button (react-table sorts only columns with an accessor).
 */
export function useLocalSort<T>(
  rows: readonly T[],
  columns: ColumnDef<T>[],
  keys: Record<string, (row: T) => number | string>,
): { rows: T[]; columns: ColumnDef<T>[]; sorting: DataTableSorting } {
  const [order, setOrder] = useState<Sortable>(BY_SIZE);
  const key = keys[order.column];
  const sorted = [...rows].sort((a, b) => {
    const [x, y] = [key(a), key(b)];
    const c = typeof x === "number" && typeof y === "number" ? x - y : String(x).localeCompare(String(y));
    return order.dir === "asc" ? c : -c;
  });
  const onSort = (column: string) =>
    setOrder((o) => ({ column, dir: o.column === column && o.dir === "desc" ? "asc" : "desc" }));
  return {
    rows: sorted,
    columns: columns.map((c) => (c.id && keys[c.id] ? ({ ...c, accessorFn: keys[c.id] } as ColumnDef<T>) : c)),
    sorting: { ...order, onSort },
  };
}

export const freedColumns = <T,>(freed: (row: T) => Freed & { estimate: boolean }, extraClass = ""): ColumnDef<T>[] => [
  column<T>("now", "Frees now", (r) => <Bytes value={freed(r).nowBytes} estimate={freed(r).estimate} />, {
    className: `num ${extraClass}`.trim(),
    header: { title: "Deleted: the space is free once the run is done" },
  }),
  column<T>(
    "later",
    `Frees in ${TRASH_DAYS.default} days`,
    (r) => <Bytes value={freed(r).laterBytes} estimate={freed(r).estimate} />,
    {
      className: `num ${extraClass}`.trim(),
      header: {
        title: `Moved to the trash, on the same volume: the space is free when the trash expires (${TRASH_DAYS.default} days by default)`,
      },
    },
  ),
];

/** The Cleanup page's totals per agent, largest first: the figure the top agents and the agent pages show. */
export function ReclaimableByAgent({ agents }: { agents: readonly AgentReclaimable[] }) {
  const { rows, columns, sorting } = useLocalSort(
    agents,
    [
      column<AgentReclaimable>("agent", "Agent", (a) => agentLabel(a.agent)),
      ...freedColumns<AgentReclaimable>((a) => a),
      column<AgentReclaimable>("total", "Reclaimable", (a) => <Bytes value={reclaimableTotal(a)} />, {
        className: "num",
      }),
    ],
    { agent: (a) => agentLabel(a.agent), now: (a) => a.nowBytes, later: (a) => a.laterBytes, total: reclaimableTotal },
  );
  return (
    <DataTable
      data={rows}
      columns={columns}
      rowId={(a) => a.agent}
      testId="reclaimable-by-agent"
      rowProps={(a) => ({ "data-agent": a.agent })}
      sorting={sorting}
      stacked={3}
    />
  );
}
