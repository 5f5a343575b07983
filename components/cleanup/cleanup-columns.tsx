import type { ColumnDef } from "@tanstack/react-table";
import Link from "next/link";
import { progressSummary } from "@/lib/cleanup/run-progress";
import { SUMMARY_JOB_STATES } from "@/lib/cleanup/job-states";
import { freedWhen, trashWaitText } from "@/lib/cleanup/freed";
import { newRunHref } from "@/lib/cleanup/links";
import { policyStateText } from "@/lib/cleanup/wording";
import type { Catalog } from "@/lib/db/queries/cleanup-catalog";
import type { Policy } from "@/lib/services/policy-view";
import type { RunList } from "@/lib/db/queries/cleanup-views";
import { formatCount, formatCountOf } from "@/lib/format/numbers";
import { agentLabel } from "@/components/agents/agent-label";
import { Bytes } from "@/components/ui/bytes";
import { column } from "@/components/ui/data-table";
import { RelativeTime } from "@/components/ui/time";
import { freedColumns } from "./reclaimable";
import { describeRun, paramsText, recipeTitle, scopeText, StateBadge, stateLabel } from "./run-text";

type Recipe = Catalog["recipes"][number];
type Run = RunList["runs"][number];

/** The recipes and what each frees fleet-wide, now or once the trash expires; admins start a run from each. */
export function recipeColumns(isAdmin: boolean): ColumnDef<Recipe>[] {
  const columns = [
    column<Recipe>("recipe", "Recipe", (r) => (
      <>
        <div className="cell-main">{r.title}</div>
        <div className="cell-sub muted small">{r.description}</div>
      </>
    )),
    column<Recipe>("agent", "Agent", (r) => agentLabel(r.agent)),
    column<Recipe>("unit", "Unit", (r) => r.unit, { cellClassName: "small" }),
    column<Recipe>("default", "Default", (r) => `${r.defaultAction}, older than ${r.defaultOlderThanDays} d`, {
      cellClassName: "small nowrap",
    }),
    // on a phone, the figures right under the recipe's name
    ...freedColumns<Recipe>((r) => r.fleet, "phone-first"),
    column<Recipe>("workspaces", "Workspaces", (r) => formatCount(r.fleet.workspaces), {
      className: "num",
      cellClassName: "muted",
    }),
  ];
  if (!isAdmin) return columns;
  return [
    ...columns,
    column<Recipe>(
      "run",
      "",
      (r) => (
        <Link className="button" href={newRunHref({ recipe: r.id })}>
          New run
        </Link>
      ),
      // on a phone, at the end of the recipe's line
      { className: "actions" },
    ),
  ];
}

export const runColumns: ColumnDef<Run>[] = [
  column("started", "Started", (r) => (
    <Link href={`/cleanup/runs/${r.id}`}>
      <RelativeTime value={r.createdAt} />
    </Link>
  )),
  column("cleanup", "Cleanup", (r) => (
    <>
      <Link href={`/cleanup/runs/${r.id}`} className="cell-main">
        {describeRun(r)}
      </Link>
      <div className="muted small">{paramsText(r)}</div>
    </>
  )),
  column("by", "By", (r) => r.createdBy, { cellClassName: "small" }),
  column("state", "State", (r) => <StateBadge state={r.status} />),
  column(
    "progress",
    "Progress",
    (r) => (
      <>
        <div className="bar">
          <span style={{ width: `${100 * progressSummary(r.status, r.progress).share}%` }} />
        </div>
        <span className="muted small">
          {r.status === "cancelled"
            ? `${formatCount(progressSummary(r.status, r.progress).count)} of ${formatCountOf(r.progress.jobs, "job")} ran`
            : `${formatCount(r.progress.finished)}/${formatCountOf(r.progress.jobs, "job")}`}
          {SUMMARY_JOB_STATES.filter((s) => r.progress.states[s])
            .map((s) => ` · ${formatCount(r.progress.states[s])} ${stateLabel(s)}`)
            .join("")}
        </span>
      </>
    ),
    { cell: () => ({ style: { minWidth: 160 } }) },
  ),
  column(
    "freed",
    "Freed",
    (r) => (
      <>
        <Bytes value={r.progress.bytesFreed} />
        {r.kind === "cleanup" && r.action === "trash" && !r.dryRun && r.progress.bytesFreed > 0 ? (
          <div className="muted small" title={trashWaitText(r.trashDays)}>
            to the trash: frees {freedWhen("trash", r.trashDays)}
          </div>
        ) : null}
      </>
    ),
    { className: "num" },
  ),
];

export const policyColumns: ColumnDef<Policy>[] = [
  column("policy", "Policy", (p) => (
    <Link href={`/cleanup/policies/${p.id}`} className="cell-main">
      {p.name}
    </Link>
  )),
  column("recipe", "Recipe", (p) => recipeTitle(p.recipe)),
  column("scope", "Scope", (p) => scopeText(p.scope), { cellClassName: "small" }),
  column("schedule", "Schedule", (p) => (p.enabled ? p.scheduleText : "disabled")),
  column("state", "State", (p) => policyStateText(p), { cell: () => ({ "data-testid": "policy-state" }) }),
  column("next", "Next run", (p) => (p.held ? "held" : p.nextRunAt ? <RelativeTime value={p.nextRunAt} /> : "—")),
  column("last", "Last run", (p) =>
    p.lastRunId ? (
      <Link href={`/cleanup/runs/${p.lastRunId}`}>
        <RelativeTime value={p.lastRunAt} />
      </Link>
    ) : (
      "never"
    ),
  ),
];
