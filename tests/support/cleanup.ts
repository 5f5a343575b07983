// Test helpers for cleanup: workspaces whose latest reports carry recipe usage, enrolled with their tokens.
import { RECIPE_AGE_STEPS_DAYS } from "@/lib/catalog/recipes";
import type { JobResult } from "@/lib/cleanup/protocol";
import type { Db } from "@/lib/db";
import { enrollWorkspace, getEnrollmentKey } from "@/lib/enrollment/workspaces";
import type { RecipeUsage } from "@/lib/report-format/schema";
import { MiB, send, type RootSpec, type WorkspaceSpec } from "./reports";

/** Usage with `entries` as { upper step bound in days, or "open": [units, bytes] }. */
export function usage(entries: Record<string, [number, number]>, protectedUnits = 0, protectedBytes = 0): RecipeUsage {
  const byAge: [number, number][] = Array.from({ length: RECIPE_AGE_STEPS_DAYS.length + 1 }, () => [0, 0]);
  for (const [k, v] of Object.entries(entries)) {
    byAge[k === "open" ? RECIPE_AGE_STEPS_DAYS.length : RECIPE_AGE_STEPS_DAYS.indexOf(Number(k) as never)] = v;
  }
  return {
    units: byAge.reduce((s, [u]) => s + u, 0),
    bytes: byAge.reduce((s, [, b]) => s + b, 0),
    protectedUnits,
    protectedBytes,
    byAge,
  };
}

/** A Claude Code root holding `sessions` (and nothing for its other recipes). */
export function claudeRoot(sessions: RecipeUsage | null, bytes = 500 * MiB): RootSpec {
  const zero = usage({});
  return {
    key: "claude-code:data",
    agent: "claude-code",
    bytes,
    ...(sessions
      ? { recipes: { "claude-code-sessions": sessions, "claude-code-debug": zero, "claude-code-file-history": zero } }
      : {}),
  };
}

export type Enrolled = WorkspaceSpec & { token: string };

/** Enrolls `ws` (keeping its token) and ingests one report with `roots` collected `collectedAt`, sent by `version`. */
export async function seedWorkspace(
  db: Db,
  ws: WorkspaceSpec,
  collectedAt: string,
  roots: RootSpec[],
  version = "0.3.0-test",
): Promise<Enrolled> {
  const { key } = await getEnrollmentKey(db);
  const { token } = await enrollWorkspace(
    db,
    { id: ws.id, name: ws.name ?? ws.id, owner: ws.owner, template: ws.template },
    key,
    null,
  );
  await send(db, ws, collectedAt, roots, undefined, { reporter: { version, scanMs: 10 } });
  return { ...ws, token };
}

/** A reporter's result for a job it did: every planned byte acted on. */
export function doneResult(
  leaseToken: string,
  bytes: number,
  units = 1,
  action: "trashed" | "deleted" = "trashed",
): JobResult {
  return {
    leaseToken,
    status: "done",
    unitsActed: units,
    bytesActed: bytes,
    units: Array.from({ length: units }, (_, i) => ({
      path: `.claude/projects/p/${i}.jsonl`,
      bytes: Math.floor(bytes / units),
      action,
    })),
    skipped: [{ path: ".claude/projects/p/new.jsonl", bytes: 10, reason: "recent" }],
    errors: [],
    logTail: ["cleanup: done"],
    startedAt: new Date().toISOString(),
    finishedAt: new Date().toISOString(),
  };
}

/** A run of Claude Code sessions older than 30 days over the whole fleet, trashed for 7 days (copy it to change it). */
export const FLEET_CLAUDE_RUN = {
  recipe: "claude-code-sessions" as const,
  params: { olderThanDays: 30 },
  scope: { all: true as const },
  dryRun: false,
  trashDays: 7,
  minAgeHours: 24,
  countStatusChanges: false,
};
