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

type Draft = { pinned: string; candidate: string; templates: string; percent: string };

/** The form's text as the API's body, checked by the same schema. */
const rolloutOf = (d: Draft) =>
  reporterRollout.safeParse({
    pinned: d.pinned || null,
    candidate: d.candidate
      ? {
          version: d.candidate,
          templates: d.templates
            .split(",")
            .map((t) => t.trim())
            .filter(Boolean),
          percent: d.percent.trim() === "" ? Number.NaN : Number(d.percent),
        }
      : null,
  });

/** The choice: latest or a pinned version for everyone, and a candidate for templates and a share of the rest. */
function RolloutForm({ view }: { view: ReporterRolloutView }) {
  const held = view.versions.filter((v) => v.held).map((v) => ({ value: v.version, label: v.version }));
  const { pinned, candidate } = view.rollout;
  const [draft, setDraft] = useState<Draft>({
    pinned: pinned ?? "",
    candidate: candidate?.version ?? "",
    templates: candidate?.templates.join(", ") ?? "",
    percent: String(candidate?.percent ?? 0),
  });
  const [saved, setSaved] = useState("");
  const save = useSaveReporterRollout(() => setSaved("Saved: workspaces get it at their next run."));
  const parsed = rolloutOf(draft);
  const edit = (key: keyof Draft) => (value: string) => {
    setSaved("");
    setDraft({ ...draft, [key]: value });
  };
  // Nothing to save until the choice differs from the one in force.
  const changed = parsed.success && JSON.stringify(parsed.data) !== JSON.stringify(view.rollout);
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (parsed.success && changed) save.mutate(parsed.data);
  };
  return (
    <form onSubmit={submit} aria-label="Reporter rollout" className="stack">
      <div className="row">
        <Select
          label="Everyone gets"
          value={draft.pinned}
          onValue={edit("pinned")}
          options={[
            { value: "", label: `latest (${view.latest})` },
            ...held.map((h) => ({ ...h, label: `pinned: ${h.label}` })),
          ]}
        />
        <Select
          label="Candidate"
          value={draft.candidate}
          onValue={edit("candidate")}
          options={[{ value: "", label: "none" }, ...held]}
        />
        {draft.candidate ? (
          <>
            <TextField
              label="to templates"
              placeholder="canary, ai-dev"
              value={draft.templates}
              onValue={edit("templates")}
            />
            <NumberField
              label="and"
              unit="% of the others"
              min={0}
              max={100}
              width={60}
              value={draft.percent}
              onValue={edit("percent")}
            />
          </>
        ) : null}
      </div>
      <div className="row">
        <Button type="submit" variant="primary" disabled={!parsed.success || !changed} pending={save.isPending}>
          Save rollout
        </Button>
        {saved ? (
          <span className="muted small" role="status">
            {saved}
          </span>
        ) : null}
      </div>
      {save.isError ? <ErrorPanel title="Could not save the rollout" error={save.error} /> : null}
    </form>
  );
}

/**
 * The staged rollout of the reporter (admins): per version how the workspaces on it fare (reporting, with errors,
 * or fallen back to their previous reporter), and the choice of what they download.
 */
export function ReporterRolloutPanel({ view }: { view: ReporterRolloutView }) {
  return (
    <div className="stack" data-testid="reporter-rollout">
      <DataTable
        data={view.versions}
        columns={versionColumns(view)}
        rowId={(v) => v.version}
        testId="reporter-versions"
      />
      <RolloutForm view={view} />
      <p className="muted small">
        A workspace&apos;s share is fixed by its id, so the same workspaces stay in it. A reporter that fails after an
        update runs the one it replaced, whose report says so (&ldquo;fell back&rdquo;).
      </p>
    </div>
  );
}
