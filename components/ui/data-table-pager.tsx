"use client";

import { formatCount } from "@/lib/format/numbers";
import type { ReactNode } from "react";
import { Button } from "./button";

/** A server-paged table's pages: which rows these are, how many a page, and the way to the next and previous. */
export function DataTablePager({
  page,
  pageSize,
  pageSizes,
  total,
  onChange,
}: {
  page: number;
  pageSize: number;
  pageSizes: readonly number[];
  total: number;
  onChange: (patch: { page: number; pageSize?: number }) => void;
}) {
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  const first = total === 0 ? 0 : (page - 1) * pageSize + 1;
  const last = Math.min(total, page * pageSize);
  return (
    <div className="pager" role="navigation" aria-label="Pages">
      <span data-testid="row-count">
        {formatCount(first)}–{formatCount(last)} of {formatCount(total)}
      </span>
      <label className="field">
        Rows
        <select value={pageSize} onChange={(e) => onChange({ pageSize: Number(e.target.value), page: 1 })}>
          {pageSizes.map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </select>
      </label>
      <Button disabled={page <= 1} onClick={() => onChange({ page: page - 1 })}>
        ← Previous
      </Button>
      <span>
        Page {page} of {formatCount(pageCount)}
      </span>
      <Button disabled={page >= pageCount} onClick={() => onChange({ page: page + 1 })}>
        Next →
      </Button>
    </div>
  );
}

/** A keyset-paged table's next rows (the audit log, runs, a run's jobs): one button while there are more. */
export function DataTableMore({
  query,
  children,
}: {
  query: { hasNextPage: boolean; isFetchingNextPage: boolean; fetchNextPage: () => Promise<unknown> };
  children: ReactNode;
}) {
  if (!query.hasNextPage) return null;
  return (
    <Button pending={query.isFetchingNextPage} onClick={() => void query.fetchNextPage()}>
      {children}
    </Button>
  );
}
