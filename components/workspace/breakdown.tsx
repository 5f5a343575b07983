import type { ColumnDef } from "@tanstack/react-table";
import Link from "next/link";
import type { RootDetail } from "@/lib/db/queries/workspace-detail";
import { formatCount, formatCountOf, formatPercent } from "@/lib/format/numbers";
import { agentLabel, hasAgentPage } from "@/components/agents/agent-label";
import { CATEGORY_COLORS } from "@/components/charts/palette";
import { shortRootKey } from "@/components/charts/shape";
import { Bytes } from "@/components/ui/bytes";
import { column, DataTable } from "@/components/ui/data-table";
import { RelativeTime } from "@/components/ui/time";
import { categoryTotals } from "@/lib/shaping/workspace-tables";
import { modulePath } from "@/lib/validations/modules";
import { recipesForRoot } from "@/lib/catalog/recipe-roots";
import { CleanupLink } from "@/components/cleanup/cleanup-link";
import { useIsAdmin, useSignedInUser } from "@/components/auth/caller-context";

function rootColumns({
  total,
  colors,
  agentLinks,
  cleanupIn,
}: {
  total: number;
  colors: Map<string, string>;
  agentLinks: boolean;
  /** The workspace whose rows get a Clean up link; none: no such column. */
  cleanupIn?: string;
}): ColumnDef<RootDetail>[] {
  const columns = [
    column<RootDetail>(
      "root",
      "Root",
      (r) => (
        <>
          <span className="swatch" style={{ background: colors.get(r.key) }} />
          {/* a module's folder has a fleet page, which (like an agent's) a viewer may open */}
          {agentLinks && r.kind === "module" ? (
            <Link href={modulePath(r.key)}>{shortRootKey(r.key)}</Link>
          ) : (
            shortRootKey(r.key)
          )}
          {r.orphaned ? <span className="badge warning ml-6">orphaned</span> : null}
          {r.leftovers.length ? (
            <span className="badge info ml-6" title={r.leftovers.map((l) => `${l.path} (${l.bytes} bytes)`).join(", ")}>
              AgentAPI leftovers: {r.leftovers.length}
            </span>
          ) : null}
        </>
      ),
      { cellClassName: "mono nowrap", cell: (r) => ({ title: r.key }) },
    ),
    column<RootDetail>(
      "agent",
      "Agent",
      (r) =>
        agentLinks && hasAgentPage(r.agent) ? (
          <Link href={`/agents/${encodeURIComponent(r.agent)}`}>{agentLabel(r.agent)}</Link>
        ) : (
          agentLabel(r.agent)
        ),
      { cellClassName: "nowrap" },
    ),
    column<RootDetail>("path", "Path", (r) => `~/${shortRootKey(r.path)}`, {
      className: "phone-hidden",
      cellClassName: "mono muted",
      cell: (r) => ({ title: `~/${r.path}` }),
    }),
    column<RootDetail>("size", "Size (du)", (r) => <Bytes value={r.bytes} />, {
      className: "num",
      header: {
        title:
          "Allocated bytes, as du -sB1 of the folder shows them (a file hard-linked into two roots counts once, in the first)",
      },
    }),
    column<RootDetail>("share", "Share", (r) => formatPercent(total ? r.bytes / total : null), {
      className: "num",
      cellClassName: "muted",
    }),
    column<RootDetail>("files", "Files", (r) => formatCount(r.files), { className: "num" }),
    column<RootDetail>("newest", "Newest change", (r) => <RelativeTime value={r.newestMtime} />, { className: "num" }),
  ];
  if (!cleanupIn) return columns;
  return [
    ...columns,
    column<RootDetail>(
      "cleanup",
      "",
      (r) => (
        <CleanupLink recipe={recipesForRoot(r)[0]?.id ?? null} workspace={cleanupIn}>
          Clean up
        </CleanupLink>
      ),
      { className: "actions", header: { "aria-label": "Clean up" } },
    ),
  ];
}

export function RootsTable({
  roots,
  colors,
  workspaceId,
}: {
  roots: readonly RootDetail[];
  colors: Map<string, string>;
  workspaceId?: string;
}) {
  const total = roots.reduce((s, r) => s + r.bytes, 0);
  // Agent pages are the fleet's: a member sees the agent's name, not a link to a page they may not open.
  const agentLinks = useSignedInUser()?.role !== "member";
  // The Clean up links in a column of their own (every row has its cell, empty where no recipe fits), compact
  // as every button in a table: inline in the Root cell they made rows with one taller than rows without.
  const isAdmin = useIsAdmin();
  const cleanupIn = isAdmin ? workspaceId : undefined;
  return (
    <DataTable
      data={roots}
      columns={rootColumns({ total, colors, agentLinks, cleanupIn })}
      rowId={(r) => r.key}
      testId="roots-table"
      stacked={5}
    />
  );
}

/** Bytes per category across all roots, as proportional bars. */
export function CategoryBreakdown({ roots }: { roots: readonly RootDetail[] }) {
  const rows = categoryTotals(roots);
  const max = rows[0]?.bytes ?? 0;
  if (rows.length === 0) return <p className="muted small">No category data in the latest report.</p>;
  return (
    <ul className="list" data-testid="category-breakdown">
      {rows.map((c) => (
        <li key={c.category}>
          <span style={{ width: 90 }} className="nowrap">
            <span className="swatch" style={{ background: CATEGORY_COLORS[c.category] ?? "var(--muted)" }} />
            {c.category}
          </span>
          <span className="grow">
            <span className="bar" style={{ display: "block" }}>
              <span style={{ width: `${max ? (c.bytes / max) * 100 : 0}%`, background: CATEGORY_COLORS[c.category] }} />
            </span>
          </span>
          <span className="num small muted">{formatCountOf(c.files, "file")}</span>
          <span className="num" style={{ width: 80 }}>
            <Bytes value={c.bytes} />
          </span>
        </li>
      ))}
    </ul>
  );
}
