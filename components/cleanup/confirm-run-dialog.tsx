"use client";

import { useEffect, useRef, useState, type ReactNode } from "react";
import { typedMatches, type ConfirmGate } from "@/lib/cleanup/confirm-gate";
import type { OverlappingRun } from "@/lib/db/queries/cleanup-overlap";
import { TextField } from "@/components/ui/field";
import { OverlapWarning } from "./overlap-warning";
import { Button } from "@/components/ui/button";

/**
 * The second step of a destructive run: a modal that states what is removed (`title`: the figure and the
 * workspaces), where (`scope`) and how (`consequence`), and sends nothing until its own button is pressed; for a
 * large run that button waits for the figure (or the one workspace's name) to be typed.
 */
export function ConfirmRunDialog({
  title,
  scope,
  consequence,
  gate,
  overlapping = [],
  pending,
  error,
  onConfirm,
  onClose,
}: {
  title: string;
  scope: ReactNode;
  consequence: ReactNode;
  gate: ConfirmGate;
  overlapping?: OverlappingRun[];
  pending: boolean;
  error?: string | null;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const [typed, setTyped] = useState("");
  // Modal: the page behind cannot be clicked, Escape closes it (the dialog's cancel event).
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => dialog?.close();
  }, []);
  const ok = typedMatches(gate, typed);
  return (
    <dialog
      ref={ref}
      className="confirm-dialog"
      aria-label="Confirm the run"
      data-testid="confirm-dialog"
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
    >
      <div className="stack snug">
        <h2>{title}?</h2>
        <p>
          <strong>Scope:</strong> {scope}
        </p>
        <p>{consequence}</p>
        <OverlapWarning runs={overlapping} />
        {gate.kind === "type" ? (
          <TextField
            look="plain"
            label={
              <>
                To confirm, type the {gate.what} <code className="nowrap">{gate.expected}</code>
              </>
            }
            value={typed}
            onValue={setTyped}
            autoComplete="off"
            spellCheck={false}
            autoFocus
          />
        ) : null}
        {error ? (
          <p className="error-message" role="alert">
            {error}
          </p>
        ) : null}
        <div className="row">
          <Button
            variant="primary"
            className="long-label"
            data-testid="confirm-run-final"
            disabled={!ok}
            pending={pending}
            onClick={onConfirm}
          >
            {title}
          </Button>
          <Button onClick={onClose}>Go back</Button>
        </div>
      </div>
    </dialog>
  );
}
