"use client";

import { usePathname, useSearchParams } from "next/navigation";
import { useCallback } from "react";

/**
 * Writes view state into the URL without a server round trip (history.pushState integrates with Next's
 * router, so useSearchParams sees it). null or "" removes a parameter.
 */
export function useSetSearchParams() {
  const searchParams = useSearchParams();
  const pathname = usePathname();
  return useCallback(
    (updates: Record<string, string | number | null | undefined>, mode: "push" | "replace" = "push") => {
      const next = new URLSearchParams(searchParams.toString());
      for (const [k, v] of Object.entries(updates)) {
        if (v === null || v === undefined || v === "") next.delete(k);
        else next.set(k, String(v));
      }
      const qs = next.toString();
      const url = qs ? `${pathname}?${qs}` : pathname;
      if (mode === "push") window.history.pushState(null, "", url);
      else window.history.replaceState(null, "", url);
    },
    [searchParams, pathname],
  );
}
