"use client";

import Link from "next/link";
import type { FleetOverview } from "@/lib/db/queries/fleet";
import { BLOCKER_REASONS } from "@/lib/report-format/blockers";
import { formatCount as n } from "@/lib/format/numbers";
import { exportPaths } from "@/lib/validations/export";
import { ExportLink } from "@/components/ui/export-link";
import { Panel } from "@/components/ui/panel";
import { RelativeTime } from "@/components/ui/time";

/**
 * The workspaces that do not report, each with the reason its module's script gave ("no Node.js, and none could
 * be fetched"), or "never reported" for Coder's workspaces that said nothing (the module is not in their template,
 * or it never ran). Nothing when every workspace reports.
 */
export function NotReporting({ list }: { list: FleetOverview["notReporting"] }) {
  if (list.total === 0) return null;
  const more = list.total - list.workspaces.length;
  return (
    <Panel
      title={`Not reporting (${n(list.total)})`}
      actions={
        <>
          <ExportLink path={exportPaths.fleet("not-reporting")} />
          <Link href="/connect">How to connect →</Link>
        </>
      }
      id="not-reporting"
    >
      <ul className="list" data-testid="not-reporting">
        {list.workspaces.map((w) => (
          <li key={w.id} className="stacked">
            <span className="grow">
              {w.owner}/{w.name}
              {w.template ? <span className="muted small"> · {w.template}</span> : null}
            </span>
            <span className="small" title={w.detail ?? undefined} data-testid="not-reporting-reason">
              {w.reason ? (
                <>
                  <strong>{BLOCKER_REASONS[w.reason] ?? w.reason}</strong>
                  {w.detail ? <span className="muted"> — {w.detail}</span> : null}
                  {w.reportedAt ? (
                    <span className="muted">
                      {" "}
                      (<RelativeTime value={w.reportedAt} />
                      {w.lastCollectedAt ? (
                        <>
                          ; last report <RelativeTime value={w.lastCollectedAt} />
                        </>
                      ) : (
                        "; never reported"
                      )}
                      )
                    </span>
                  ) : null}
                </>
              ) : (
                <span className="muted">
                  never reported; its module said nothing (not in the template, or never ran)
                </span>
              )}
            </span>
          </li>
        ))}
      </ul>
      {more > 0 ? (
        <p className="small muted">
          <Link href="/workspaces?reporting=no">{n(more)} more</Link> not shown.
        </p>
      ) : null}
    </Panel>
  );
}
