import { sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { describeEachDatabase } from "@/tests/support/db";
import { ingestReport } from "@/lib/ingest/report";
import type { Report } from "@/lib/report-format/schema";
import { enroll, makeReport, MiB } from "@/tests/support/reports";
import { count, fleetLevels, rows } from "@/tests/support/rollups";

describeEachDatabase("group commit", (t) => {
  it("stores each of 49 concurrent reports exactly once, in shared commits, and fails only the bad ones", async () => {
    const db = t.current.db;
    const fleet = Array.from({ length: 10 }, (_, i) => ({ id: `gc-${i}`, owner: `o${i % 3}` }));
    for (const w of fleet) await enroll(db, w);
    const reports = fleet.flatMap((w, i) =>
      [1, 2, 3, 4].map((k) =>
        makeReport(w, `2026-11-0${k}T0${i % 10}:00:00.000Z`, [
          { key: "claude-code:data", agent: "claude-code", bytes: (k + i) * MiB },
          ...(k < 4 ? [{ key: "codex:data", agent: "codex", bytes: MiB }] : []),
        ]),
      ),
    );
    const resent = reports.slice(0, 8);
    // gc-1 sends a report under an id gc-0 already used; gc-2 sends one that the database rejects (a root twice).
    const stolen = { ...makeReport(fleet[1], "2026-11-05T01:00:00.000Z", []), id: reports[0].id };
    const broken: Report = makeReport(fleet[2], "2026-11-05T02:00:00.000Z", [
      { key: "codex:data", agent: "codex", bytes: MiB },
      { key: "codex:data", agent: "codex", bytes: 2 * MiB },
    ]);
    // The first report is stored before the burst, so the id gc-1 reuses is gc-0's whatever the order.
    await ingestReport(db, reports[0].workspace.id, reports[0]);
    const sent = [...reports.slice(1), ...resent, stolen, broken].sort(() => Math.random() - 0.5);
    expect(sent).toHaveLength(49);
    const results = await Promise.allSettled(sent.map((r) => ingestReport(db, r.workspace.id, r)));
    const by = (r: Report) => results[sent.indexOf(r)];

    const ok = results.flatMap((r) => (r.status === "fulfilled" ? [r.value.status] : []));
    expect(ok.filter((s) => s === "stored")).toHaveLength(39);
    expect(ok.filter((s) => s === "duplicate")).toHaveLength(8);
    expect(by(stolen)).toMatchObject({ status: "rejected", reason: { status: 409 } });
    expect(by(broken)).toMatchObject({ status: "rejected" });
    expect(await count(db, "reports")).toBe(40);
    expect(await count(db, "root_usage")).toBe(70);
    expect(await count(db, "root_latest")).toBe(10);
    // Level on the last day: each workspace's newest report (claude 4 + i MiB, codex gone).
    expect(await fleetLevels(db, "2026-11-30")).toEqual({ "claude-code": { bytes: (40 + 45) * MiB, roots: 10 } });
    expect(await fleetLevels(db, "2026-11-03")).toEqual({
      "claude-code": { bytes: (30 + 45) * MiB, roots: 10 },
      codex: { bytes: 10 * MiB, roots: 10 },
    });
    // Rows written by one transaction share its id: fewer transactions than reports means they were batched.
    const [tx] = await rows<{ n: number }>(db, sql`select count(distinct xmin::text)::int as n from reports`);
    expect(tx.n).toBeLessThan(40);
  });

  it("answers each report of a batch on its own: stored, late, duplicate, unknown workspace", async () => {
    const db = t.current.db;
    const w = { id: "gc-0", owner: "o0" };
    const late = makeReport(w, "2026-10-30T10:00:00.000Z", [
      { key: "claude-code:data", agent: "claude-code", bytes: 9 * MiB },
    ]);
    const next = makeReport(w, "2026-11-06T10:00:00.000Z", [
      { key: "claude-code:data", agent: "claude-code", bytes: 9 * MiB },
    ]);
    const stranger = makeReport({ id: "gc-unknown", owner: "x" }, "2026-11-06T10:00:00.000Z", []);
    const [a, b, c, d] = await Promise.allSettled([
      ingestReport(db, w.id, late),
      ingestReport(db, w.id, next),
      ingestReport(db, w.id, next),
      ingestReport(db, stranger.workspace.id, stranger),
    ]);
    expect(a).toMatchObject({ status: "fulfilled", value: { status: "stored", newest: false } });
    expect([b, c].map((r) => r.status === "fulfilled" && r.value.status).sort()).toEqual(["duplicate", "stored"]);
    expect(d).toMatchObject({ status: "rejected", reason: { status: 404 } });
  });
});
