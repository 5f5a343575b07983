"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import type { IgnoredOverride, Rule, Severity } from "@/lib/db/queries/findings";
import type { ThresholdField } from "@/lib/findings/rule";
import type { RuleUpdate } from "@/lib/findings/rules";
import { rulesOptions } from "@/lib/query/findings";
import { useSaveRule } from "@/lib/query/use-findings-mutations";
import { agentLabel } from "@/components/agents/agent-label";
import { useIsAdmin } from "@/components/auth/caller-context";
import { ErrorPanel } from "@/components/ui/error-panel";
import { QueryView } from "@/components/ui/states";
import { CheckField, NumberField } from "@/components/ui/field";
import { Select } from "@/components/ui/select";
import { Button } from "@/components/ui/button";

const MIB = 1024 ** 2;
const SEVERITIES = (["critical", "warning", "info"] as const).map((s) => ({ value: s, label: s }));

/** A threshold's input: sizes in MiB (stored in bytes), the others in their own unit, with label and unit said. */
function ThresholdInput({
  field,
  value,
  onChange,
}: {
  field: ThresholdField;
  value: number;
  onChange: (v: number) => void;
}) {
  const inMiB = field.unit === "MiB" || field.unit === "MiB per day";
  const shown = inMiB ? Math.round((value / MIB) * 100) / 100 : value;
  return (
    <NumberField
      label={field.label}
      unit={
        <>
          <span className="nowrap">{field.unit}</span>
          {field.hint ? <span className="nowrap">({field.hint})</span> : null}
        </>
      }
      min={field.unit === "%" ? 1 : 0}
      max={field.unit === "%" ? 100 : undefined}
      step={field.unit === "%" ? 1 : "any"}
      width={110}
      value={shown}
      onValue={(v) => {
        const n = Number(v);
        if (Number.isFinite(n) && n >= 0) onChange(inMiB ? Math.round(n * MIB) : n);
      }}
    />
  );
}

type RuleRowProps = { rule: Rule; ignored?: IgnoredOverride; onSave: (u: RuleUpdate) => void; saving: boolean };

function RuleRow({ rule, ignored, onSave, saving }: RuleRowProps) {
  const canEdit = useIsAdmin();
  const [draft, setDraft] = useState(rule);
  // Ignored stored thresholds can be replaced by saving the rule as shown.
  const dirty = Boolean(ignored) || JSON.stringify(draft) !== JSON.stringify(rule);
  const params = draft.params as Record<string, unknown>;
  const setParam = (key: string, v: unknown) =>
    setDraft({ ...draft, params: { ...params, [key]: v } as Rule["params"] });
  return (
    <li>
      {/* Viewers see the thresholds but cannot edit them. */}
      <fieldset className="finding-body bare-fieldset" disabled={!canEdit}>
        <div className="row">
          <CheckField
            className="field-title"
            checked={draft.enabled}
            onChecked={(enabled) => setDraft({ ...draft, enabled })}
            label={<strong>{rule.title}</strong>}
          />
          <Select
            aria-label={`Severity of ${rule.title}`}
            value={draft.severity}
            options={SEVERITIES}
            onValue={(v) => setDraft({ ...draft, severity: v as Severity })}
          />
        </div>
        <div className="muted small">{rule.description}</div>
        {ignored ? (
          // Stored by an earlier version in a shape this one does not accept: the defaults below apply instead.
          <div className="small" role="alert" data-testid={`ignored-${rule.id}`}>
            The stored thresholds <code>{JSON.stringify(ignored.params)}</code> are not valid any more (
            {ignored.problem}), so the defaults below apply. Save the rule to replace them.
          </div>
        ) : null}
        <div className="row">
          {Object.entries(params).map(([key, v]) => {
            const field = rule.fields[key];
            if (!field) return null;
            return typeof v === "number" ? (
              <ThresholdInput key={key} field={field} value={v} onChange={(n) => setParam(key, n)} />
            ) : v && typeof v === "object" ? (
              // One threshold per agent: "Expected size of a root of Claude Code".
              Object.entries(v as Record<string, number>).map(([agent, n]) => (
                <ThresholdInput
                  key={`${key}.${agent}`}
                  field={{ ...field, label: `${field.label} ${agentLabel(agent)}` }}
                  value={n}
                  onChange={(x) => setParam(key, { ...(v as object), [agent]: x })}
                />
              ))
            ) : null;
          })}
        </div>
      </fieldset>
      {canEdit ? (
        <Button
          variant="primary"
          disabled={!dirty}
          pending={saving}
          onClick={() =>
            onSave({ id: draft.id, enabled: draft.enabled, severity: draft.severity, params: draft.params })
          }
        >
          Save
        </Button>
      ) : null}
    </li>
  );
}

/** The findings' thresholds, editable (PUT /api/v1/findings/rules); saving refreshes every finding shown. */
export function RulesEditor() {
  const query = useQuery(rulesOptions());
  const mutation = useSaveRule();
  const canEdit = useIsAdmin();
  return (
    <QueryView query={query}>
      {(data) => (
        <>
          {canEdit ? null : (
            <p className="notice small" data-testid="rules-read-only">
              Read-only: the rules in effect, as an admin set them. Only admins change them.
            </p>
          )}
          {mutation.isError ? <ErrorPanel title="Could not save the rule" error={mutation.error} /> : null}
          <ul className="list findings" data-testid="rules-editor">
            {data.rules.map((r) => (
              <RuleRow
                key={`${r.id}:${JSON.stringify(r)}`}
                rule={r}
                ignored={data.ignored.find((i) => i.id === r.id)}
                saving={mutation.isPending}
                onSave={(u) => mutation.mutate(u)}
              />
            ))}
          </ul>
        </>
      )}
    </QueryView>
  );
}
