import type { ColumnDef } from "@tanstack/react-table";
import { agentLabel } from "@/components/agents/agent-label";
import { Bytes } from "@/components/ui/bytes";
import { column, DataTable } from "@/components/ui/data-table";
import { ExportLink } from "@/components/ui/export-link";
import { Panel } from "@/components/ui/panel";
import { SUPPORT_LABELS } from "@/lib/catalog/compatibility";
import type { RootDetail } from "@/lib/db/queries/workspace-detail";
import type { Persistence, PersistenceVerdict, Placement } from "@/lib/report-format/persistence";
import { restartReadiness, type AgentReadiness } from "@/lib/shaping/restart-readiness";
import { exportPaths } from "@/lib/validations/export";

const VERDICT: Record<PersistenceVerdict, { label: string; className: string }> = {
  persistent: { label: "survives", className: "badge info" },
  "not-persistent": { label: "lost at every stop", className: "badge critical" },
  unknown: { label: "unknown", className: "badge" },
};

function Verdict({ verdict, title }: { verdict: PersistenceVerdict; title?: string }) {
  const v = VERDICT[verdict];
  return (
    <span className={v.className} title={title}>
      {v.label}
    </span>
  );
}

/** "ext4 at /home/coder from /dev/rbd0", the facts a reader checks against findmnt. */
const mountText = (p: Placement) =>
  p.mount ? `${p.mount.fsType} at ${p.mount.mountPoint} from ${p.mount.source || "—"}` : "mount unknown";

function StateFiles({ a }: { a: AgentReadiness }) {
  if (a.stateFiles.length === 0) return <span className="muted">—</span>;
  return (
    <>
      {a.stateFiles.map((s) => (
        <div key={s.root} title={s.stateFile}>
          {s.stateMtime === null ? (
            <span className={s.persistence === "on" ? "badge warning" : "badge"}>missing</span>
          ) : s.behindHours !== null && s.behindHours > 24 ? (
            <span className="badge warning">{Math.round(s.behindHours)} h behind the sessions</span>
          ) : (
            <span className="badge info">saved</span>
          )}{" "}
          <span className="muted small">persistence {s.persistence}</span>
        </div>
      ))}
    </>
  );
}

const columns: ColumnDef<AgentReadiness>[] = [
  column("agent", "Agent", (a) => agentLabel(a.agent)),
  column("support", "Resume", (a) => (a.support ? SUPPORT_LABELS[a.support] : "not listed")),
  column("module", "Module", (a) =>
    a.modules.length ? (
      <>
        <span className="mono">{a.modules.join(", ")}</span>
        {a.minVersion ? <div className="muted small">resumes from {a.minVersion}</div> : null}
      </>
    ) : (
      <span className="muted">none found</span>
    ),
  ),
  column("survives", "Sessions after a restart", (a) => (
    <>
      <Verdict verdict={a.survives} /> <div className="muted small">{a.why}</div>
    </>
  )),
  column("state", "AgentAPI state", (a) => <StateFiles a={a} />),
  column("space", "Needs free", (a) =>
    a.minBytes === null ? (
      "—"
    ) : (
      <span className={a.enoughSpace === false ? "badge warning" : undefined}>
        <Bytes value={a.minBytes} />
      </span>
    ),
  ),
];

/**
 * Whether this workspace keeps its agents' state across a restart: where its home lives, each agent's resume
 * support and whether its session folders survive, AgentAPI's state files, and the links that lead off the
 * home's volume.
 */
export function RestartPanel({
  workspaceId,
  persistence,
  roots,
  freeBytes,
}: {
  workspaceId: string;
  persistence: Persistence | null;
  roots: readonly RootDetail[];
  freeBytes: number | null;
}) {
  const agents = restartReadiness(persistence, roots, freeBytes);
  const off = persistence
    ? Object.entries(persistence.roots).filter(([, p]) => p.link || (p.mount && !p.mount.homeVolume))
    : [];
  return (
    <Panel
      title="Survives a restart?"
      id="restart"
      actions={
        <ExportLink
          path={exportPaths.restart()}
          params={{ workspace: workspaceId }}
          title="Download the folders this workspace loses at a restart as CSV"
        />
      }
    >
      {persistence ? (
        <div className="stack" data-testid="restart-panel">
          <p>
            Home: <Verdict verdict={persistence.home.verdict} />{" "}
            <span className="muted small">
              {persistence.home.reason} ({mountText(persistence.home)})
            </span>
          </p>
          {agents.length ? (
            <DataTable data={agents} columns={columns} rowId={(a) => a.agent} testId="restart-agents" stacked={2} />
          ) : null}
          {off.length ? (
            <div className="small" data-testid="restart-off-volume">
              {off.map(([key, p]) => (
                <div key={key}>
                  <span className="mono">{key}</span> <Verdict verdict={p.verdict} />{" "}
                  {p.link ? (
                    <>
                      linked <span className="mono">~/{p.link.path}</span> →{" "}
                      <span className="mono">{p.link.target}</span>,{" "}
                    </>
                  ) : null}
                  <span className="muted">
                    {p.reason} ({mountText(p)})
                  </span>
                </div>
              ))}
            </div>
          ) : null}
        </div>
      ) : (
        <p className="muted small">
          This workspace&apos;s reporter does not say where its folders live: a newer reporter does.
        </p>
      )}
    </Panel>
  );
}
