"use client";

import type { ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { RelativeTime } from "@/components/ui/time";

type Keep = { id: string; path: string; expiresAt: Date | string };

/**
 * Keeps in force, each with where it holds, its expiry and an End button: the owner's own on My storage, every
 * one on the cleanup page for admins (each through its own endpoint, hence `end`).
 */
export function KeepList<K extends Keep>({
  keeps,
  where,
  end,
  testId,
}: {
  keeps: K[];
  where: (k: K) => ReactNode;
  end: { isPending: boolean; variables?: string; mutate: (id: string) => void };
  testId: string;
}) {
  return (
    <ul className="list" data-testid={testId}>
      {keeps.map((k) => (
        <li key={k.id}>
          <span className="grow">
            <code>{k.path}</code> on {where(k)}
          </span>
          <span className="small">
            until <RelativeTime value={k.expiresAt} />
          </span>
          <Button size="small" pending={end.isPending && end.variables === k.id} onClick={() => end.mutate(k.id)}>
            End
          </Button>
        </li>
      ))}
    </ul>
  );
}
