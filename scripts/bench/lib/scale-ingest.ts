import { randomUUID } from "node:crypto";
import type { Database } from "@/lib/db/open";
import { keptRefresherFor } from "@/lib/ingest/kept-refresh";
import { ingestReport } from "@/lib/ingest/report";
import { rootKey, type FleetShape } from "../../lib/scale-fleet";

/**
 * Rows/s of ingest (16 concurrent callers, group commit) of `count` reports newer than each workspace's latest,
 * until the kept aggregates hold them all (they are refreshed after the acknowledgement).
 */
export async function ingestRate(f: { database: Database }, FULL: FleetShape, count: number): Promise<number> {
  const reports = Array.from({ length: count }, (_, j) => {
    const i = 1 + ((j * 7919) % FULL.workspaces);
    const ws = { id: `ws-${String(i).padStart(6, "0")}`, name: `dev-${i}`, owner: `owner-${i % 500}` };
    return {
      version: 1 as const,
      id: randomUUID(),
      collectedAt: new Date(Date.now() + 60_000 + j).toISOString(),
      workspace: ws,
      volume: { totalBytes: 100 * 2 ** 30, freeBytes: 40 * 2 ** 30 },
      reporter: { version: "bench", scanMs: 100 },
      roots: Array.from({ length: FULL.roots }, (_, k) => {
        const agent = ["claude-code", "codex", "gemini", "goose", "opencode", "other"][k % 6];
        return {
          key: rootKey(agent, k),
          kind: (["tool", "module", "legacy", "script-data"] as const)[k % 4],
          agent,
          path: `.r/${k}`,
          bytes: (8 + j + k) * 2 ** 20,
          apparentBytes: (8 + j + k) * 2 ** 20,
          files: 100,
          dirs: 10,
        };
      }),
    };
  });
  let next = 0;
  const t = performance.now();
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < reports.length) {
        const r = reports[next++];
        await ingestReport(f.database.db, r.workspace.id, r);
      }
    }),
  );
  await keptRefresherFor(f.database.db).drain();
  return (count * FULL.roots) / ((performance.now() - t) / 1000);
}
