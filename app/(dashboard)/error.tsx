"use client";

import { ErrorPanel } from "@/components/ui/error-panel";

export default function DashboardError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return <ErrorPanel title="This page failed to load" error={error} onRetry={reset} />;
}
