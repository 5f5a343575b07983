"use client";

import type { UseQueryResult } from "@tanstack/react-query";
import Link from "next/link";
import type { ReactNode } from "react";
import { ErrorPanel } from "./error-panel";

export function Skeleton({ height = 160, label = "Loading" }: { height?: number; label?: string }) {
  return <div className="skeleton" style={{ height }} role="status" aria-label={label} />;
}

export function PageLoading() {
  return (
    <div className="stack" aria-busy="true">
      <Skeleton height={32} />
      <div className="grid-4">
        <Skeleton height={90} />
        <Skeleton height={90} />
        <Skeleton height={90} />
        <Skeleton height={90} />
      </div>
      <Skeleton height={300} />
    </div>
  );
}

/** Nothing to show yet: says why and links to the page that fixes it. */
export function EmptyState({ children }: { children?: ReactNode }) {
  return (
    <div className="empty" data-testid="empty-state">
      <p>{children ?? "No reports yet."}</p>
      <p>
        <Link href="/connect" className="button">
          Connect workspaces
        </Link>
      </p>
    </div>
  );
}

/**
 * Loading → skeleton, error without data → error panel with retry, empty → empty state, else the content.
 * A failed background refresh keeps the last data on screen and says so.
 */
export function QueryView<T>({
  query,
  isEmpty,
  empty,
  height,
  children,
}: {
  query: UseQueryResult<T>;
  isEmpty?: (data: T) => boolean;
  empty?: ReactNode;
  height?: number;
  children: (data: T) => ReactNode;
}) {
  if (query.isPending) return <Skeleton height={height} />;
  if (query.isError && query.data === undefined) {
    return <ErrorPanel error={query.error} onRetry={() => void query.refetch()} />;
  }
  const data = query.data as T;
  return (
    <>
      {query.isError ? (
        <p className="stale-note" role="status">
          Showing earlier data: the last refresh failed ({query.error.message}).
        </p>
      ) : null}
      {isEmpty?.(data) ? <EmptyState>{empty}</EmptyState> : children(data)}
    </>
  );
}
