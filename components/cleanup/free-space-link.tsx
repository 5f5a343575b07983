"use client";

import Link from "next/link";
import { freeSpaceHref } from "@/lib/cleanup/free-space";
import { useIsAdmin } from "@/components/auth/caller-context";

/** "Free space here": a full workspace's way to every recipe's preview on it. Admins only: viewers see no action. */
export function FreeSpaceLink({ workspaceId, primary = false }: { workspaceId: string; primary?: boolean }) {
  if (!useIsAdmin()) return null;
  return (
    <Link
      className={`button small${primary ? " primary" : ""}`}
      data-testid="free-space-link"
      href={freeSpaceHref(workspaceId)}
    >
      Free space here
    </Link>
  );
}
