"use client";

import { usePathname } from "next/navigation";
import { useCallback } from "react";

/** The URL's parameters as they are now: history.pushState changes them at once, useSearchParams a render later. */
export const currentSearchParams = () => new URLSearchParams(window.location.search);

/**
 * Writes view state into the URL without a server round trip (history.pushState integrates with Next's
 * router, so useSearchParams sees it). null or "" removes a parameter. Updates build on the URL itself, so two
 * quick changes (a second click before the first has rendered) both count.
 */
export function useSetSearchParams() {
  const pathname = usePathname();
  return useCallback(
    (updates: Record<string, string | number | null | undefined>, mode: "push" | "replace" = "push") => {
      const next = currentSearchParams();
      for (const [k, v] of Object.entries(updates)) {
        if (v === null || v === undefined || v === "") next.delete(k);
        else next.set(k, String(v));
      }
      const qs = next.toString();
      const url = qs ? `${pathname}?${qs}` : pathname;
      if (mode === "push") window.history.pushState(null, "", url);
      else window.history.replaceState(null, "", url);
    },
    [pathname],
  );
}
