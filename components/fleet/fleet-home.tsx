import type { ColumnDef } from "@tanstack/react-table";
import { Bytes } from "@/components/ui/bytes";
import { column, DataTable } from "@/components/ui/data-table";
import { ExportLink } from "@/components/ui/export-link";
import { Panel } from "@/components/ui/panel";
import { formatCount, formatPercent } from "@/lib/format/numbers";
import type { FleetHome } from "@/lib/db/queries/fleet-home";
import { FLEET_HOME_PARTS } from "@/lib/shaping/home-breakdown";
import { exportPaths } from "@/lib/validations/export";

type Part = (typeof FLEET_HOME_PARTS)[number];

const LABELS: Record<Part, string> = {
  agents: "Agents",
  modules: "Modules",
  caches: "Package caches",
  projects: "Project dependencies",
  other: "Other",
};

function partColumns(home: FleetHome): ColumnDef<Part>[] {
  const share = (key: Part) => (home.home > 0 ? home[key] / home.home : null);
  return [
    column("what", "What", (key) => LABELS[key]),
    column("bytes", "Size", (key) => <Bytes value={home[key]} />, { className: "num" }),
    column("share", "Share", (key) => formatPercent(share(key)), { className: "num", cellClassName: "muted" }),
    column(
      "bar",
      "",
      (key) => (
        <span className="bar" style={{ display: "block" }}>
          <span style={{ width: `${(share(key) ?? 0) * 100}%` }} />
        </span>
      ),
      {
        className: "phone-hidden",
        header: { "aria-label": "Share as a bar" },
        cell: () => ({ style: { width: "50%" } }),
      },
    ),
  ];
}

/**
 * Whether agents, caches or projects fill the fleet's homes: each workspace's whole home (du -sx ~) from its
 * newest report, added up, with the volumes' Used beyond the homes beside it.
 */
export function FleetHomePanel({ home }: { home: FleetHome }) {
  if (home.workspaces === 0) return null;
  return (
    <Panel title="What fills the homes" id="homes" actions={<ExportLink path={exportPaths.fleet("homes")} />}>
      <DataTable data={FLEET_HOME_PARTS} columns={partColumns(home)} rowId={(key) => key} testId="fleet-home-split" />
      <p className="muted small">
        {formatCount(home.workspaces)} workspace(s) whose reporter measures the whole home: <Bytes value={home.home} />{" "}
        in their homes, and <Bytes value={home.outside} /> of their volumes&apos; Used outside them.
      </p>
    </Panel>
  );
}
