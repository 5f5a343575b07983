import { beforeAll, expect, it } from "vitest";
import { describeEachDatabase } from "@/lib/db/testing";
import { MiB, seedScenario, send, testNow, at, enroll } from "@/tests/support/reports";
import { findingExportRows } from "./export-findings";
import { getFindingsSummary, listFindings } from "./findings";

const collect = async <T>(it: AsyncIterable<T>) => {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
};

describeEachDatabase("findings order", (t) => {
  const now = testNow();
  const wsE = { id: "ws-e", name: "echo", owner: "erin" };
  beforeAll(async () => {
    await seedScenario(t.current.db, now);
    // Debug/file-history 3 times its sessions but 80 MiB over them, where ws-a's is 1.5 times and 300 MiB over:
    // ordered by how far over (value − threshold) ws-a came first, by how many times (value ÷ threshold) ws-e does.
    await enroll(t.current.db, wsE);
    await send(t.current.db, wsE, at(now, 0), [
      {
        key: "claude-code:data",
        agent: "claude-code",
        bytes: 200 * MiB,
        categories: {
          sessions: { bytes: 40 * MiB, files: 1 },
          logs: { bytes: 120 * MiB, files: 1 },
          other: { bytes: 40 * MiB, files: 1 },
        },
      },
    ]);
  });

  it("gives the page, the summary and the export the same first N findings", async () => {
    const db = t.current.db;
    for (const filters of [{}, { rule: "claude-debug-history" as const }]) {
      const exported = await collect(findingExportRows(db, { ...filters, now }, { pageSize: 1 }));
      expect(exported.length).toBeGreaterThan(1);
      for (let limit = 1; limit <= exported.length; limit++) {
        expect(
          (await listFindings(db, { ...filters, now, limit })).findings,
          `${JSON.stringify(filters)} ${limit}`,
        ).toEqual(exported.slice(0, limit));
      }
    }
    const debug = await listFindings(db, { rule: "claude-debug-history", now, limit: 1 });
    expect(debug.findings.map((f) => f.workspace.id)).toEqual(["ws-e"]);
    const all = await collect(findingExportRows(db, { now }));
    expect((await getFindingsSummary(db, { now, top: 4 })).top).toEqual(all.slice(0, 4));
  });
});
