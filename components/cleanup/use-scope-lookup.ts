"use client";

import { useQueries, useQuery } from "@tanstack/react-query";
import { useDeferredValue } from "react";
import { AGENTS } from "@/lib/catalog/agents";
import { cleanable } from "@/lib/catalog/recipe-roots";
import { scopeTokens, type ResolveWorkspace, type RunDraft } from "@/lib/cleanup/run-draft";
import { resolveWorkspace, searchTermOf, workspaceLabel, type Lookup } from "@/lib/cleanup/workspace-names";
import { workspaceDetailOptions, workspaceLookupOptions as lookupOptions } from "@/lib/query/workspaces";
import type { RunFieldCompletion } from "./run-fields";

/** Workspaces whose roots the custom target's root field offers (each is a workspace-page read). */
const ROOTS_FROM = 3;

/** The agents' own data folders: root keys every workspace with the agent reports. */
const AGENT_ROOTS = AGENTS.flatMap((a) => a.dataPaths.map((p) => p.key));

/**
 * The scope field's side of the run form: what the admin's typed workspace names resolve to (looked up in the
 * workspaces list), and what to offer as they type (workspaces, owners or templates; root keys of the
 * workspaces in scope for a custom target).
 */
export function useScopeLookup(draft: RunDraft): { resolve: ResolveWorkspace; completion: RunFieldCompletion } {
  const text = useDeferredValue(draft.scopeKind === "all" ? "" : draft.scopeValues);
  const typed = draft.scopeKind === "workspaceIds" ? scopeTokens(text) : [];
  const lookups = useQueries({ queries: typed.map((t) => lookupOptions(searchTermOf(t))) });
  const lookupOf = new Map<string, Lookup>(
    typed.map((t, i) => {
      const q = lookups[i];
      return [
        t,
        q.data && !q.isPlaceholderData
          ? { candidates: q.data.rows, complete: q.data.total <= q.data.rows.length }
          : null,
      ];
    }),
  );
  const resolve: ResolveWorkspace = (t) => resolveWorkspace(t, lookupOf.get(t) ?? null);

  // The word being typed is the text after the last separator; each offer completes it in place.
  const typing = /[^\s,]*$/.exec(text)![0];
  const before = text.slice(0, text.length - typing.length);
  const offers = useQuery({
    ...lookupOptions(searchTermOf(typing)),
    enabled: draft.scopeKind !== "all" && typing !== "",
  });
  const rows = offers.data?.rows ?? [];
  const words =
    draft.scopeKind === "workspaceIds"
      ? rows.map(workspaceLabel)
      : draft.scopeKind === "owners"
        ? rows.map((w) => w.owner)
        : rows.map((w) => w.template ?? "").filter(Boolean);

  const ids = typed
    .map(resolve)
    .flatMap((r) => (r.ok ? [r.id] : []))
    .slice(0, ROOTS_FROM);
  const details = useQueries({
    queries: ids.map((id) => ({ ...workspaceDetailOptions(id, { range: "7d" }), enabled: draft.target === "custom" })),
  });
  const inScope = details.flatMap((d) => d.data?.roots.filter(cleanable).map((r) => r.key) ?? []);

  return {
    resolve,
    completion: {
      scope: [...new Set(words)].map((w) => before + w),
      roots: [...new Set([...inScope.sort(), ...AGENT_ROOTS])],
    },
  };
}
