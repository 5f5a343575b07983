"use client";

import { useState } from "react";
import type { KeepRow } from "@/lib/db/queries/owner-cleanup";
import { KEEP_MAX_DAYS } from "@/lib/cleanup/owners";
import { useAddKeep, useEndKeep } from "@/lib/query/use-owner-mutations";
import { Button } from "@/components/ui/button";
import { NumberField, TextField } from "@/components/ui/field";
import { KeepList } from "@/components/cleanup/keep-list";

/** The Keeps in force on the owner's workspaces, each with its expiry and an End button. */
export function MyKeeps({ keeps }: { keeps: KeepRow[] }) {
  const end = useEndKeep();
  if (keeps.length === 0) return <p className="small muted">Nothing kept: every cleanup may reach everything.</p>;
  return <KeepList keeps={keeps} where={(k) => k.workspaceName} end={end} testId="my-keeps" />;
}

/** Keep a unit or folder of one workspace from every cleanup (previews, policies, jobs) for up to 14 days. */
export function KeepForm({ workspaceId }: { workspaceId: string }) {
  const [path, setPath] = useState("");
  const [days, setDays] = useState("7");
  const add = useAddKeep({ onSuccess: () => setPath("") });
  return (
    <form
      className="stack snug"
      aria-label="Keep a folder"
      onSubmit={(e) => {
        e.preventDefault();
        add.mutate({ workspaceId, path, days: Number(days) });
      }}
    >
      <div className="row">
        <TextField
          label="Keep"
          placeholder=".claude/projects/-work-app"
          value={path}
          onValue={setPath}
          required
          width={220}
        />
        <NumberField label="for" unit="days" value={days} onValue={setDays} min={1} max={KEEP_MAX_DAYS} width={60} />
        <Button type="submit" pending={add.isPending}>
          Keep
        </Button>
      </div>
      {add.error ? (
        <p className="error-message" role="alert">
          {add.error.message}
        </p>
      ) : null}
    </form>
  );
}
