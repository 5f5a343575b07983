"use client";

import { useState, type FormEvent } from "react";
import { useIsAdmin } from "@/components/auth/caller-context";
import { ErrorPanel } from "@/components/ui/error-panel";
import { column, DataTable } from "@/components/ui/data-table";
import type { StorageSettings } from "@/lib/db/queries/storage";
import { useSaveRetention } from "@/lib/query/use-admin-mutations";
import { retentionProblem, retentionUpdate, type RetentionDays } from "@/lib/validations/settings";
import { Button } from "@/components/ui/button";

type Setting = StorageSettings["retention"][number];

/** "raw reports (every report and root) older than 7 days are dropped …": what saving a value does, in words. */
const effect = (s: Setting, days: number) =>
  `${s.label.charAt(0).toLowerCase()}${s.label.slice(1)}: what is older than ${days} ${days === 1 ? "day" : "days"} is dropped at the next maintenance run, within the hour.`;

/**
 * How long each kind of data is kept: a table for viewers; for admins, a form that checks the values as the
 * API will (the same schema), says what saving them does before it is done, and saves through
 * PUT /api/v1/settings/retention.
 */
export function RetentionEditor({ retention }: { retention: Setting[] }) {
  const isAdmin = useIsAdmin();
  const [draft, setDraft] = useState<Record<string, string>>(() =>
    Object.fromEntries(retention.map((s) => [s.id, String(s.days)])),
  );
  const [saved, setSaved] = useState("");
  const save = useSaveRetention(() => setSaved("Saved."));
  const changed = retention.filter((s) => draft[s.id].trim() !== String(s.days));
  const update = Object.fromEntries(
    changed.map((s) => [s.id, draft[s.id].trim() === "" ? Number.NaN : Number(draft[s.id])]),
  );
  const parsed = retentionUpdate.safeParse(update);
  const invalid = (id: string) => !parsed.success && parsed.error.issues.some((i) => i.path[0] === id);
  const next = { ...Object.fromEntries(retention.map((s) => [s.id, s.days])), ...update } as RetentionDays;
  const problem = changed.length && parsed.success ? retentionProblem(next) : null;
  const ready = changed.length > 0 && parsed.success && !problem;

  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (ready) save.mutate(parsed.data);
  };
  const edit = (id: string, value: string) => {
    setSaved("");
    save.reset();
    setDraft({ ...draft, [id]: value });
  };

  return (
    <form onSubmit={submit} aria-label="Retention">
      <DataTable
        data={retention}
        columns={[
          column<Setting>("data", "Data", (s) => s.label),
          column<Setting>(
            "days",
            "Kept (days)",
            (s) => {
              const error = invalid(s.id) ? `A whole number of days from ${s.minDays} to ${s.maxDays}` : null;
              return isAdmin ? (
                <>
                  <input
                    type="number"
                    inputMode="numeric"
                    min={s.minDays}
                    max={s.maxDays}
                    step={1}
                    required
                    aria-label={`${s.label}, days kept`}
                    aria-invalid={error ? true : undefined}
                    aria-describedby={error ? `${s.id}-error` : undefined}
                    value={draft[s.id]}
                    onChange={(e) => edit(s.id, e.target.value)}
                    style={{ width: 90 }}
                  />
                  {error ? (
                    <div id={`${s.id}-error`} className="critical-text small">
                      {error}
                    </div>
                  ) : null}
                </>
              ) : (
                s.days
              );
            },
            { className: "num" },
          ),
          column<Setting>("default", "Default", (s) => s.defaultDays, { className: "num", cellClassName: "muted" }),
        ]}
        rowId={(s) => s.id}
        testId="retention-table"
      />
      {isAdmin ? (
        <div className="stack" style={{ gap: 8, marginTop: 10 }}>
          {ready ? (
            <ul className="small" data-testid="retention-effect" style={{ margin: 0, paddingLeft: 18 }}>
              {changed.map((s) => (
                <li key={s.id}>{effect(s, next[s.id])}</li>
              ))}
            </ul>
          ) : null}
          {problem ? (
            <p className="critical-text small m-0" role="alert">
              {problem}
            </p>
          ) : null}
          <div className="row">
            <Button type="submit" variant="primary" disabled={!ready} pending={save.isPending}>
              Save retention
            </Button>
            {changed.length ? (
              <Button onClick={() => setDraft(Object.fromEntries(retention.map((s) => [s.id, String(s.days)])))}>
                Undo changes
              </Button>
            ) : null}
            {saved && !changed.length ? (
              <span className="muted small" role="status">
                {saved}
              </span>
            ) : null}
          </div>
          {save.isError ? <ErrorPanel title="Could not save the retention" error={save.error} /> : null}
        </div>
      ) : null}
      <p className="muted small">
        The maintenance task applies retention shortly after the app starts and then hourly
        {isAdmin ? "" : "; admins change it here"}. The latest value of every workspace and the fleet totals never
        expire.
      </p>
    </form>
  );
}
