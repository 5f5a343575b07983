"use client";

import { useQuery } from "@tanstack/react-query";
import { workspaceLookupOptions } from "@/lib/query/workspaces";

/** One workspace's row by its id (from a link), so that the form can name it instead of showing the id. */
export function useWorkspaceRef(id: string) {
  const query = useQuery(workspaceLookupOptions(id));
  return { query, workspace: query.data?.rows.find((w) => w.id === id) ?? null };
}
