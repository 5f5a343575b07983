"use client";

import { Button } from "./button";

/** A visible failure with the server's message and a retry button: never an empty chart. */
export function ErrorPanel({
  title = "Could not load this data",
  error,
  onRetry,
}: {
  title?: string;
  error: unknown;
  onRetry?: () => void;
}) {
  const message = error instanceof Error ? error.message : String(error ?? "Unknown error");
  return (
    <div className="error-panel" role="alert">
      <strong>{title}</strong>
      <p className="error-message">{message}</p>
      {onRetry ? <Button onClick={onRetry}>Retry</Button> : null}
    </div>
  );
}
