import { Bytes } from "@/components/ui/bytes";
import { ExportLink } from "@/components/ui/export-link";
import { Panel } from "@/components/ui/panel";
import { formatCount, formatPercent } from "@/lib/format/numbers";
import type { FleetHome } from "@/lib/db/queries/fleet-home";
import { FLEET_HOME_PARTS } from "@/lib/shaping/home-breakdown";
import { exportPaths } from "@/lib/validations/export";

const LABELS: Record<(typeof FLEET_HOME_PARTS)[number], string> = {
  agents: "Agents",
  modules: "Modules",
  caches: "Package caches",
  projects: "Project dependencies",
  other: "Other",
};

/**
 * Whether agents, caches or projects fill the fleet's homes: each workspace's whole home (du -sx ~) from its
 * newest report, added up, with the volumes' Used beyond the homes beside it.
 */
export function FleetHomePanel({ home }: { home: FleetHome }) {
  if (home.workspaces === 0) return null;
  return (
    <Panel title="What fills the homes" actions={<ExportLink path={exportPaths.fleet("homes")} />}>
      <div className="table-wrap">
        <table className="table" data-testid="fleet-home-split">
          <tbody>
            {FLEET_HOME_PARTS.map((key) => (
              <tr key={key}>
                <td>{LABELS[key]}</td>
                <td className="num">
                  <Bytes value={home[key]} />
                </td>
                <td className="num muted">{formatPercent(home.home > 0 ? home[key] / home.home : null)}</td>
                <td className="phone-hidden" style={{ width: "50%" }}>
                  <span className="bar" style={{ display: "block" }}>
                    <span style={{ width: `${home.home > 0 ? (home[key] / home.home) * 100 : 0}%` }} />
                  </span>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="muted small">
        {formatCount(home.workspaces)} workspace(s) whose reporter measures the whole home: <Bytes value={home.home} />{" "}
        in their homes, and <Bytes value={home.outside} /> of their volumes&apos; Used outside them.
      </p>
    </Panel>
  );
}
