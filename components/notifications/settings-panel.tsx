"use client";

import { useQuery } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useIsAdmin } from "@/components/auth/caller-context";
import { Button } from "@/components/ui/button";
import { ErrorPanel } from "@/components/ui/error-panel";
import { NumberField } from "@/components/ui/field";
import { Panel } from "@/components/ui/panel";
import { formatCount } from "@/lib/format/numbers";
import { notifySettingsOptions } from "@/lib/query/notifications";
import { useSaveNotifySettings } from "@/lib/query/use-notification-mutations";
import type { NotifySettingView } from "@/lib/services/notify-settings";

const valid = (s: NotifySettingView, text: string) => {
  const n = Number(text);
  return text.trim() !== "" && Number.isInteger(n) && n >= s.min && n <= s.max;
};

/** One setting: read-only when its variable is set (named), else a number field for admins. */
function SettingRow({
  s,
  draft,
  onDraft,
  editable,
}: {
  s: NotifySettingView;
  draft: string;
  onDraft: (v: string) => void;
  editable: boolean;
}) {
  const bad = !valid(s, draft);
  return (
    <>
      <dt>{s.label}</dt>
      <dd data-testid={`setting-${s.id}`} data-source={s.source}>
        {editable && s.source !== "env" ? (
          <>
            <NumberField
              aria-label={s.label}
              min={s.min}
              max={s.max}
              step={1}
              width={110}
              value={draft}
              onValue={onDraft}
              unit={<span className="muted small"> {s.unit}</span>}
              aria-invalid={bad || undefined}
            />
            {bad ? (
              <div className="critical-text small">
                A whole number from {formatCount(s.min)} to {formatCount(s.max)}
              </div>
            ) : null}
          </>
        ) : (
          <>
            {formatCount(s.value)} {s.unit}
          </>
        )}
        <span className="muted small">
          {" "}
          {s.source === "env" ? (
            <>
              set by <code>{s.env}</code>
            </>
          ) : s.source === "default" ? (
            "(default)"
          ) : (
            <>
              (default {formatCount(s.defaultValue)}; <code>{s.env}</code> would win)
            </>
          )}
        </span>
      </dd>
    </>
  );
}

/** The thresholds, the digest hour and the hourly cap: admins change those no variable sets. */
export function SettingsPanel() {
  const isAdmin = useIsAdmin();
  const query = useQuery(notifySettingsOptions());
  const settings = query.data?.settings ?? [];
  const [draft, setDraft] = useState<Record<string, string>>({});
  const [saved, setSaved] = useState(false);
  const save = useSaveNotifySettings(() => {
    setDraft({});
    setSaved(true);
  });
  const text = (s: NotifySettingView) => draft[s.id] ?? String(s.value);
  const changed = settings.filter((s) => s.source !== "env" && text(s) !== String(s.value));
  const ready = changed.length > 0 && changed.every((s) => valid(s, text(s)));
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (ready) save.mutate(Object.fromEntries(changed.map((s) => [s.id, Number(text(s))])));
  };
  return (
    <Panel title="When owners are told">
      {query.isError ? <ErrorPanel error={query.error} onRetry={() => query.refetch()} /> : null}
      <form onSubmit={submit} aria-label="Notice settings" className="stack">
        <dl className="kv phone-stack">
          {settings.map((s) => (
            <SettingRow
              key={s.id}
              s={s}
              draft={text(s)}
              editable={isAdmin}
              onDraft={(v) => {
                setSaved(false);
                save.reset();
                setDraft({ ...draft, [s.id]: v });
              }}
            />
          ))}
        </dl>
        {isAdmin ? (
          <div className="row">
            <Button type="submit" variant="primary" disabled={!ready} pending={save.isPending}>
              Save settings
            </Button>
            {saved && !changed.length ? (
              <span className="muted small" role="status">
                Saved: the next decision uses them.
              </span>
            ) : null}
          </div>
        ) : null}
        {save.isError ? <ErrorPanel title="Could not save the settings" error={save.error} /> : null}
      </form>
    </Panel>
  );
}
