"use client";

import { formatAbsolute, formatRelative } from "@/lib/format/time";

/** A relative time ("3 hours ago") with the absolute time on hover. */
export function RelativeTime({ value }: { value: string | number | Date | null | undefined }) {
  const abs = formatAbsolute(value);
  if (!abs) return <span>—</span>;
  return (
    <time dateTime={new Date(value as string).toISOString()} title={abs} suppressHydrationWarning>
      {formatRelative(value)}
    </time>
  );
}
