// Test helpers: enroll workspaces and send them hand-made reports through the real ingest path.
import { randomUUID } from "node:crypto";
import type { Db } from "@/lib/db";
import { enrollWorkspace, getEnrollmentKey } from "@/lib/enrollment/workspaces";
import { keptRefresherFor } from "@/lib/ingest/kept-refresh";
import { ingestReport } from "@/lib/ingest/report";
import type { LargestEntry, Report, StorageRoot, Volume } from "@/lib/report-format/schema";
import { addDaysTo, utcDayOf, type Day } from "@/lib/series";

export const MiB = 1024 ** 2;
export const GiB = 1024 ** 3;

/** Noon (UTC) of the real current day: reports are in the past, enrollment (first_seen_at = now()) is "today". */
export function testNow(): Date {
  return new Date(`${utcDayOf(Date.now())}T12:00:00Z`);
}

/** The UTC day `n` days before `now`. */
export const dayAgo = (now: Date, n: number): Day => addDaysTo(utcDayOf(now), -n);

/** An instant on the day `n` days before `now`, at `hour` UTC. */
export const at = (now: Date, n: number, hour = 10): string =>
  `${dayAgo(now, n)}T${String(hour).padStart(2, "0")}:00:00.000Z`;

export type RootSpec = Partial<StorageRoot> & { key: string; agent: string; bytes: number };

export function root(spec: RootSpec): StorageRoot {
  return {
    kind: "tool",
    path: `.${spec.key.replace(/[^a-z0-9]/gi, "-")}`,
    apparentBytes: spec.bytes,
    files: 1,
    dirs: 1,
    ...spec,
  };
}

export function session(path: string, bytes: number, mtime = "2026-01-01T00:00:00.000Z"): LargestEntry {
  return { path, bytes, mtime, type: "session" };
}

export type WorkspaceSpec = { id: string; name?: string; owner: string; template?: string };

export async function enroll(db: Db, ws: WorkspaceSpec): Promise<void> {
  const { key } = await getEnrollmentKey(db);
  await enrollWorkspace(db, { id: ws.id, name: ws.name ?? ws.id, owner: ws.owner, template: ws.template }, key, null);
}

export function makeReport(
  ws: WorkspaceSpec,
  collectedAt: string,
  roots: RootSpec[],
  volume?: Volume,
  extra: Partial<Report> = {},
): Report {
  return {
    version: 1,
    id: randomUUID(),
    collectedAt,
    workspace: { id: ws.id, name: ws.name ?? ws.id, owner: ws.owner, template: ws.template },
    volume: volume ?? null,
    reporter: { version: "0.1.0-test", scanMs: 123 },
    roots: roots.map(root),
    ...extra,
  };
}

/**
 * Ingests a report of `ws` collected at `collectedAt` with `roots`, and waits for the kept aggregates to include it
 * (they are refreshed after the acknowledgement), as a page read a moment later sees it.
 */
export async function send(
  db: Db,
  ws: WorkspaceSpec,
  collectedAt: string,
  roots: RootSpec[],
  volume?: Volume,
  extra: Partial<Report> = {},
) {
  const result = await ingestReport(
    db,
    ws.id,
    makeReport(ws, collectedAt, roots, volume, extra),
    new Date(collectedAt),
  );
  await keptRefresherFor(db).drain();
  return result;
}

export const WS_A: WorkspaceSpec = { id: "ws-a", name: "alpha", owner: "alice", template: "ai-dev" };
export const WS_B: WorkspaceSpec = { id: "ws-b", name: "bravo", owner: "bob", template: "minimal" };
export const WS_C: WorkspaceSpec = { id: "ws-c", name: "charlie", owner: "carol", template: "minimal" };
export const WS_D: WorkspaceSpec = { id: "ws-d", name: "delta", owner: "dave", template: "ai-dev" };

/** ws-a's Claude root at its newest report: over 1 GiB, a 300 MiB session, debug (logs) + file-history > sessions. */
export const CLAUDE_LATEST: RootSpec = {
  key: "claude-code:data",
  agent: "claude-code",
  bytes: 1536 * MiB,
  categories: {
    sessions: { bytes: 600 * MiB, files: 10 },
    logs: { bytes: 800 * MiB, files: 100 },
    other: { bytes: 136 * MiB, files: 5 },
  },
  ages: {
    "7d": { bytes: 936 * MiB, files: 50 },
    "30d": { bytes: 300 * MiB, files: 20 },
    "90d": { bytes: 200 * MiB, files: 20 },
    older: { bytes: 100 * MiB, files: 25 },
  },
  largest: [
    session("projects/app/big.jsonl", 300 * MiB),
    { path: "file-history", bytes: 100 * MiB, mtime: "2026-01-01T00:00:00.000Z", type: "dir" },
    session("projects/app/small.jsonl", 150 * MiB),
  ],
};

/**
 * A small fleet with known numbers, days counted back from `now` (D0 = today):
 * - ws-a reports on D10, D8, D7 and D0 (gaps on D9 and D6..D1); codex disappears on D0; volume at 94 % (old
 *   report format: Size and Avail only), growing, so forecast to fill but not yet full.
 * - ws-b reports on D7 and D1 (23:00, so not silent): gemini 100 → 500 MiB, a module of no agent, a leftover on D1.
 * - ws-c is enrolled and never reports; ws-d reported once, on D19 (silent).
 */
export async function seedScenario(db: Db, now: Date) {
  for (const ws of [WS_A, WS_B, WS_C, WS_D]) await enroll(db, ws);
  const vol = (usedGiB: number) => ({ totalBytes: 10 * GiB, freeBytes: 10 * GiB - usedGiB * GiB });
  const claude = (bytes: number): RootSpec => ({ key: "claude-code:data", agent: "claude-code", bytes });
  const codex = (bytes: number): RootSpec => ({ key: "codex:data", agent: "codex", bytes });
  const scriptData: RootSpec = {
    key: "script-data:0001",
    kind: "script-data",
    agent: "other",
    bytes: 5 * MiB,
    orphaned: true,
  };
  await send(db, WS_D, at(now, 19), [{ key: "goose:data", agent: "goose", bytes: 60 * MiB }]);
  await send(db, WS_A, at(now, 10), [claude(100 * MiB), codex(10 * MiB)], vol(1));
  await send(db, WS_A, at(now, 8), [claude(200 * MiB), codex(10 * MiB)], vol(2));
  await send(db, WS_A, at(now, 7), [claude(300 * MiB), codex(20 * MiB), scriptData], vol(3));
  await send(db, WS_B, at(now, 7), [
    { key: "gemini:data", agent: "gemini", bytes: 100 * MiB },
    { key: "acme/tool", kind: "module", agent: "other", bytes: 1 * MiB },
  ]);
  await send(db, WS_B, at(now, 1, 23), [
    { key: "gemini:data", agent: "gemini", bytes: 500 * MiB },
    { key: "acme/tool", kind: "module", agent: "other", bytes: 1 * MiB },
    { key: "leftover:agentapi", kind: "leftover", agent: "claude-code", bytes: 1 * MiB },
  ]);
  await send(db, WS_A, at(now, 0), [CLAUDE_LATEST, scriptData], vol(9.375));
}
