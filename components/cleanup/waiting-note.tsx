"use client";

import type { RunStatus } from "@/lib/cleanup/run-progress";
import { waitingText, type WaitingReporters } from "@/lib/cleanup/waiting";

/** Above a run's progress: why its jobs still wait, when their reporters stopped calling in. */
export function WaitingNote({ waiting, status }: { waiting: WaitingReporters; status: RunStatus }) {
  const text = status === "cancelled" ? null : waitingText(waiting);
  if (!text) return null;
  return (
    <p className="notice warn" role="status" data-testid="waiting-note">
      {text}
    </p>
  );
}
