import Link from "next/link";
import type { FleetOverview } from "@/lib/db/queries/fleet";
import { formatCount, formatCountOf } from "@/lib/format/numbers";
import { exportPaths } from "@/lib/validations/export";
import { modulePath } from "@/lib/validations/modules";
import { fullInText } from "@/lib/format/full-in";
import { dfSummary } from "@/lib/format/volume";
import { agentLabel, hasAgentPage } from "@/components/agents/agent-label";
import { agentColor } from "@/components/charts/palette";
import { ReclaimableCell } from "@/components/cleanup/reclaimable";
import { Bytes } from "@/components/ui/bytes";
import { ExportLink } from "@/components/ui/export-link";
import { Panel } from "@/components/ui/panel";
import { RelativeTime } from "@/components/ui/time";

const wsHref = (id: string) => `/workspaces/${encodeURIComponent(id)}`;

function None({ children }: { children: string }) {
  return <p className="muted small">{children}</p>;
}

export function TopWorkspaces({ rows }: { rows: FleetOverview["topWorkspaces"] }) {
  return (
    <Panel
      title="Top workspaces"
      actions={
        <>
          <ExportLink path={exportPaths.fleet("top-workspaces")} />
          <Link href="/workspaces">All workspaces →</Link>
        </>
      }
    >
      {rows.length === 0 ? <None>No workspace has reported yet.</None> : null}
      <ul className="list">
        {rows.map((w) => (
          <li key={w.id}>
            <Link className="grow" href={wsHref(w.id)}>
              {w.owner}/{w.name}
            </Link>
            <span className="muted small">largest: {agentLabel(w.largestAgent)}</span>
            <Link href={wsHref(w.id)} className="num" title="The workspace's total, every root and the rest of home">
              <Bytes value={w.totalBytes} /> total
            </Link>
          </li>
        ))}
      </ul>
    </Panel>
  );
}

export function TopAgents({ rows }: { rows: FleetOverview["topAgents"] }) {
  return (
    <Panel title="Top agents" actions={<ExportLink path={exportPaths.fleet("top-agents")} />}>
      {rows.length === 0 ? <None>No agent data yet.</None> : null}
      <ul className="list">
        {rows.map((a) => {
          const label = (
            <>
              <span className="swatch" style={{ background: agentColor(a.agent) }} />
              {agentLabel(a.agent)}
            </>
          );
          return (
            <li key={a.agent}>
              {hasAgentPage(a.agent) ? (
                <Link className="grow" href={`/agents/${encodeURIComponent(a.agent)}`}>
                  {label}
                </Link>
              ) : (
                <span className="grow">{label}</span>
              )}
              {hasAgentPage(a.agent) ? (
                <Link className="muted small" href={`/workspaces?agent=${encodeURIComponent(a.agent)}`}>
                  {a.workspaces} ws
                </Link>
              ) : (
                <span className="muted small">{a.workspaces} ws</span>
              )}
              <ReclaimableCell agent={a.agent} />
              <span className="num">
                <Bytes value={a.bytes} />
              </span>
            </li>
          );
        })}
      </ul>
    </Panel>
  );
}

export function FastestGrowing({ rows }: { rows: FleetOverview["fastestGrowingRoots"] }) {
  return (
    <Panel title="Fastest-growing roots (7 d)" actions={<ExportLink path={exportPaths.fleet("fastest-growing")} />}>
      {rows.length === 0 ? <None>No root has a week of history yet.</None> : null}
      <ul className="list">
        {rows.map((r) => (
          <li key={`${r.workspace.id}:${r.rootKey}`}>
            <Link
              className="grow"
              href={wsHref(r.workspace.id)}
              title={`${r.workspace.owner}/${r.workspace.name} · ${r.rootKey}`}
            >
              <span className="swatch" style={{ background: agentColor(r.agent) }} />
              {r.workspace.name} {r.kind === "module" ? null : <span className="muted mono">{r.rootKey}</span>}
            </Link>
            {/* a module's folder links to its fleet page */}
            {r.kind === "module" ? (
              <Link className="muted mono small" href={modulePath(r.rootKey)}>
                {r.rootKey}
              </Link>
            ) : null}
            <span className="num small muted">
              <Bytes value={r.growthBytesPerDay} perDay />
            </span>
            <span className="num">
              <Bytes value={r.growthBytes} delta />
            </span>
          </li>
        ))}
      </ul>
    </Panel>
  );
}

export function VolumesAtRisk({
  rows,
  total,
  fillingDays,
}: {
  rows: FleetOverview["volumesAtRisk"];
  /** Every volume at risk; the list holds the first few. */
  total: number;
  fillingDays: number | null;
}) {
  const title =
    fillingDays === null ? "Full volumes" : `Volumes full or filling within ${formatCountOf(fillingDays, "day")}`;
  return (
    <Panel
      title={title}
      actions={
        <>
          <ExportLink path={exportPaths.fleet("volumes-at-risk")} />
          <Link href="/volumes" data-testid="at-risk-link">
            All {formatCount(total)} at risk →
          </Link>
        </>
      }
    >
      {rows.length === 0 ? (
        <None>{`No volume is full${fillingDays === null ? "" : ` or forecast to fill within ${formatCountOf(fillingDays, "day")}`}.`}</None>
      ) : null}
      <ul className="list" data-testid="volumes-at-risk">
        {rows.map((r) => {
          const text = fullInText(r.volume, r.daysUntilFull);
          return (
            <li key={r.workspace.id}>
              <Link className="grow" href={wsHref(r.workspace.id)}>
                {r.workspace.owner}/{r.workspace.name}
              </Link>
              <span className="small muted" title={dfSummary(r.volume)}>
                {r.volume.inodesFull && !r.volume.full
                  ? `IUse% ${r.volume.inodes?.usePercent}%`
                  : `Use% ${r.volume.usePercent}%`}{" "}
                · <Bytes value={r.volume.availBytes} /> avail
              </span>
              <span className="num badge critical" title={r.forecastFullAt ?? undefined}>
                {text}
              </span>
            </li>
          );
        })}
      </ul>
      {total > rows.length ? (
        <p className="small">
          <Link href="/volumes">+{formatCount(total - rows.length)} more</Link>
        </p>
      ) : null}
    </Panel>
  );
}

/**
 * Workspaces that stopped reporting. Only a sync from Coder tells a running workspace from a stopped one: without
 * one, the panel says no more than that they stopped.
 */
export function SilentWorkspaces({ silent, synced }: { silent: FleetOverview["silent"]; synced: boolean }) {
  return (
    <Panel
      title={`Stopped reporting${synced ? " while running" : ""} (${silent.count})`}
      actions={
        <>
          <ExportLink path={exportPaths.fleet("silent")} />
          <Link href="/workspaces?sort=lastReport&dir=asc">Oldest reports →</Link>
        </>
      }
    >
      {silent.count === 0 ? (
        <None>{`Every workspace${synced ? " running in Coder" : ""} reported in the last ${silent.hours} hours.`}</None>
      ) : null}
      {synced ? null : (
        <p className="small muted" data-testid="silent-unsynced">
          Whether they are running or stopped is Coder&apos;s to say:{" "}
          <Link href="/connect#coder-sync">connect the Coder sync</Link>.
        </p>
      )}
      {silent.expected > 0 ? (
        <p className="small muted" data-testid="silent-expected">
          <Link href="/workspaces?status=stopped&sort=lastReport&dir=asc">
            {silent.expected.toLocaleString("en-US")} more
          </Link>{" "}
          stopped or dormant in Coder (expected).
        </p>
      ) : null}
      <ul className="list">
        {silent.workspaces.map((w) => (
          <li key={w.id}>
            <Link className="grow" href={wsHref(w.id)}>
              {w.owner}/{w.name}
            </Link>
            <span className="small muted">
              {w.lastCollectedAt ? <RelativeTime value={w.lastCollectedAt} /> : "never reported"}
            </span>
          </li>
        ))}
      </ul>
    </Panel>
  );
}

export function FindingsSummaryPanel({ findings }: { findings: FleetOverview["findings"] }) {
  return (
    <Panel
      title={`Findings (${findings.total})`}
      actions={
        <>
          <ExportLink path={exportPaths.findings()} title="Download every finding as CSV" />
          <Link href="/findings">All findings →</Link>
        </>
      }
    >
      <div className="row small" style={{ marginBottom: 8 }}>
        {(["critical", "warning", "info"] as const).map((s) => (
          <Link key={s} href={`/findings?severity=${s}`} className={`badge ${s}`}>
            {findings.bySeverity[s]} {s}
          </Link>
        ))}
      </div>
      {findings.total === 0 ? <None>Nothing needs attention.</None> : null}
      <ul className="list">
        {findings.top.map((f, i) => (
          <li key={`${f.ruleId}:${f.workspace.id}:${f.rootKey ?? ""}:${i}`}>
            <span className={`badge ${f.severity}`}>{f.severity}</span>
            <Link className="grow" href={wsHref(f.workspace.id)} title={f.message}>
              {f.workspace.name}: {f.message}
            </Link>
          </li>
        ))}
      </ul>
    </Panel>
  );
}
