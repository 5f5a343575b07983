"use client";

import { useState, type FormEvent } from "react";
import { Bytes } from "@/components/ui/bytes";
import { Button } from "@/components/ui/button";
import { column, DataTable } from "@/components/ui/data-table";
import { ErrorPanel } from "@/components/ui/error-panel";
import { NumberField, TextField } from "@/components/ui/field";
import { Select } from "@/components/ui/select";
import { RelativeTime } from "@/components/ui/time";
import { formatCount } from "@/lib/format/numbers";
import { useSaveReporterRollout } from "@/lib/query/use-admin-mutations";
import type { ReporterRolloutView, ReporterVersionView } from "@/lib/services/reporter-rollout";
import { reporterRollout } from "@/lib/validations/reporter-rollout";

const versionColumns = (view: ReporterRolloutView) => [
  column<ReporterVersionView>("version", "Version", (v) => (
    <>
      <code>{v.version}</code>
      <div className="muted small">
        {[
          v.version === view.latest ? "latest (this release)" : null,
          v.version === view.rollout.pinned ? "pinned" : null,
          v.version === view.rollout.candidate?.version ? "candidate" : null,
          v.held ? null : "not held",
        ]
          .filter(Boolean)
          .join(" · ")}
      </div>
    </>
  )),
  column<ReporterVersionView>("reporting", "Workspaces", (v) => formatCount(v.reporting), { className: "num" }),
  column<ReporterVersionView>("errors", "With errors", (v) => formatCount(v.withErrors), { className: "num" }),
  column<ReporterVersionView>("fellBack", "Fell back", (v) => formatCount(v.fellBack), {
    className: "num",
    cell: (v) => ({ className: v.fellBack ? "num critical-text" : "num", "data-fell-back": v.fellBack > 0 }),
  }),
  column<ReporterVersionView>("size", "Bundle", (v) => (v.size === null ? "" : <Bytes value={v.size} />), {
    className: "num",
  }),
  column<ReporterVersionView>("firstSeen", "Held since", (v) =>
    v.firstSeen ? <RelativeTime value={v.firstSeen} /> : "",
  ),
];

/**
 * The staged rollout of the reporter (admins): which version every workspace downloads (this release's, or one
 * pinned), a candidate for some templates and a stable share of the rest, and per version how the workspaces
 * on it fare: reporting, with errors, or fallen back to their previous reporter.
 */
export function ReporterRolloutPanel({ view }: { view: ReporterRolloutView }) {
  const held = view.versions.filter((v) => v.held).map((v) => ({ value: v.version, label: v.version }));
  const [pinned, setPinned] = useState(view.rollout.pinned ?? "");
  const [candidate, setCandidate] = useState(view.rollout.candidate?.version ?? "");
  const [templates, setTemplates] = useState(view.rollout.candidate?.templates.join(", ") ?? "");
  const [percent, setPercent] = useState(String(view.rollout.candidate?.percent ?? 0));
  const [saved, setSaved] = useState("");
  const save = useSaveReporterRollout(() => setSaved("Saved: workspaces get it at their next run."));
  const parsed = reporterRollout.safeParse({
    pinned: pinned || null,
    candidate: candidate
      ? {
          version: candidate,
          templates: templates
            .split(",")
            .map((t) => t.trim())
            .filter(Boolean),
          percent: percent.trim() === "" ? Number.NaN : Number(percent),
        }
      : null,
  });
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    setSaved("");
    if (parsed.success) save.mutate(parsed.data);
  };
  return (
    <form onSubmit={submit} aria-label="Reporter rollout" className="stack" data-testid="reporter-rollout">
      <DataTable
        data={view.versions}
        columns={versionColumns(view)}
        rowId={(v) => v.version}
        testId="reporter-versions"
      />
      <div className="row">
        <Select
          label="Everyone gets"
          value={pinned}
          onValue={setPinned}
          options={[
            { value: "", label: `latest (${view.latest})` },
            ...held.map((h) => ({ ...h, label: `pinned: ${h.label}` })),
          ]}
        />
        <Select
          label="Candidate"
          value={candidate}
          onValue={setCandidate}
          options={[{ value: "", label: "none" }, ...held]}
        />
        {candidate ? (
          <>
            <TextField label="to templates" placeholder="canary, ai-dev" value={templates} onValue={setTemplates} />
            <NumberField
              label="and"
              unit="% of the others"
              min={0}
              max={100}
              width={60}
              value={percent}
              onValue={setPercent}
            />
          </>
        ) : null}
      </div>
      <div className="row">
        <Button type="submit" variant="primary" disabled={!parsed.success} pending={save.isPending}>
          Save rollout
        </Button>
        {saved ? (
          <span className="muted small" role="status">
            {saved}
          </span>
        ) : null}
      </div>
      {save.isError ? <ErrorPanel title="Could not save the rollout" error={save.error} /> : null}
      <p className="muted small">
        A workspace&apos;s share is fixed by its id, so the same workspaces stay in it. A reporter that fails after an
        update runs the one it replaced, whose report says so (&ldquo;fell back&rdquo;).
      </p>
    </form>
  );
}
