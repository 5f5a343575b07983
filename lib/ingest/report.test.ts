import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { authenticateWorkspace, enrollWorkspace, getEnrollmentKey } from "@/lib/enrollment/workspaces";
import { ingestReport } from "@/lib/ingest/report";
import { describeEachDatabase } from "@/tests/support/db";
import { enroll, makeReport, MiB } from "@/tests/support/reports";
import { count, fleetLevels, rows } from "@/tests/support/rollups";
import { readMigrationFiles } from "drizzle-orm/migrator";
import { MIGRATIONS_FOLDER } from "@/lib/db/open";

describeEachDatabase("ingest", (t) => {
  const ws = { id: "ws-1", owner: "alice", template: "ai-dev" };

  it("migrates an empty database to the journal's latest migration", async () => {
    const db = t.current.db;
    const applied = await rows<{ n: number }>(db, sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
    expect(applied[0].n).toBe(readMigrationFiles({ migrationsFolder: MIGRATIONS_FOLDER }).length);
    for (const table of [
      "workspaces",
      "reports",
      "root_usage",
      "root_latest",
      "root_daily",
      "workspace_daily",
      "fleet_delta",
    ]) {
      expect(await count(db, table)).toBe(0);
    }
  });

  it("leaves a report's rewrites heap-only: no index of root_latest holds a column a report changes, pages keep room", async () => {
    // Each report rewrites every root's row in root_latest; an index on bytes (or full pages) would turn each
    // rewrite into new index entries, the largest cost of ingest before migration 0015.
    const indexed = await rows<{ col: string }>(
      t.current.db,
      sql`select distinct a.attname as col
      from pg_index i join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey)
      where i.indrelid = 'root_latest'::regclass order by 1`,
    );
    expect(indexed.map((r) => r.col)).toEqual(["agent", "root_key", "workspace_id"]);
    // The day roll-ups are rewritten by every report of the day as well.
    for (const table of ["root_latest", "root_daily", "workspace_daily"]) {
      const [{ options }] = await rows<{ options: string[] }>(
        t.current.db,
        sql`select reloptions as options
        from pg_class where oid = ${table}::regclass`,
      );
      expect(options, table).toContain("fillfactor=50");
    }
  });

  it("stores a report in history, latest, daily roll-ups and the workspace summary", async () => {
    const db = t.current.db;
    await enroll(db, ws);
    const report = makeReport(
      ws,
      "2026-11-10T10:00:00.000Z",
      [
        { key: "claude-code:data", agent: "claude-code", bytes: 300 * MiB, files: 40 },
        { key: "coder/claude-code", agent: "claude-code", kind: "module", bytes: 2 * MiB },
        { key: "codex:data", agent: "codex", bytes: 100 * MiB },
      ],
      { totalBytes: 10_000 * MiB, freeBytes: 4_000 * MiB },
    );
    const result = await ingestReport(db, ws.id, report);
    expect(result).toMatchObject({ status: "stored", newest: true, roots: 3 });

    expect(await count(db, "reports")).toBe(1);
    expect(await count(db, "root_usage")).toBe(3);
    expect(await count(db, "root_latest")).toBe(3);
    expect(await count(db, "root_daily")).toBe(3);
    const [w] = await rows<Record<string, unknown>>(
      db,
      sql`select total_bytes::float8 as total, root_count, largest_agent,
      largest_agent_bytes::float8 as lab, volume_free_bytes::float8 as free, last_report_id::text as rid from workspaces`,
    );
    expect(w).toEqual({
      total: 402 * MiB,
      root_count: 3,
      largest_agent: "claude-code",
      lab: 302 * MiB,
      free: 4000 * MiB,
      rid: report.id,
    });
    expect(await fleetLevels(db, "2026-11-10")).toEqual({
      "claude-code": { bytes: 302 * MiB, roots: 2 },
      codex: { bytes: 100 * MiB, roots: 1 },
    });
    const [latest] = await rows<{ files: number; categories: unknown }>(
      db,
      sql`select files::int as files, categories
      from root_latest where root_key = 'claude-code:data'`,
    );
    expect(latest.files).toBe(40);
  });

  it("stores a report sent twice once, and answers the second with duplicate", async () => {
    const db = t.current.db;
    const report = makeReport(ws, "2026-11-11T10:00:00.000Z", [
      { key: "codex:data", agent: "codex", bytes: 150 * MiB },
    ]);
    const before = { reports: await count(db, "reports"), usage: await count(db, "root_usage") };
    const first = await ingestReport(db, ws.id, report);
    const levels = await fleetLevels(db, "2026-11-11");
    const second = await ingestReport(db, ws.id, report);
    expect([first.status, second.status]).toEqual(["stored", "duplicate"]);
    expect(await count(db, "reports")).toBe(before.reports + 1);
    expect(await count(db, "root_usage")).toBe(before.usage + 1);
    expect(await fleetLevels(db, "2026-11-11")).toEqual(levels);
    // The roots that this report no longer has are gone from the latest table and from the fleet's level.
    expect(levels).toEqual({ codex: { bytes: 150 * MiB, roots: 1 } });
    expect(await count(db, "root_latest")).toBe(1);
  });

  it("refuses a report for another workspace, and a report id another workspace used", async () => {
    const db = t.current.db;
    const other = { id: "ws-2", owner: "bob" };
    await enroll(db, other);
    const report = makeReport(ws, "2026-11-12T10:00:00.000Z", [{ key: "a", agent: "other", bytes: 1 }]);
    await expect(ingestReport(db, other.id, report)).rejects.toMatchObject({ status: 403 });
    await ingestReport(db, ws.id, report);
    const stolen = { ...makeReport(other, "2026-11-12T10:00:00.000Z", []), id: report.id };
    await expect(ingestReport(db, other.id, stolen)).rejects.toMatchObject({ status: 409 });
  });
});

describeEachDatabase("ingest order", (t) => {
  const days = ["2026-10-01", "2026-10-02", "2026-10-04", "2026-10-04", "2026-10-07"];
  const series = (wsId: string) => {
    const w = { id: wsId, owner: "carol" };
    return days.map((d, i) =>
      makeReport(w, `${d}T${10 + i}:00:00.000Z`, [
        { key: "claude-code:data", agent: "claude-code", bytes: (i + 1) * 10 * MiB },
        ...(i % 2 === 0 ? [{ key: "gemini:data", agent: "gemini", bytes: (5 - i) * MiB }] : []),
        ...(i === 3 ? [] : [{ key: `script-data:${i}`, agent: "other", kind: "script-data" as const, bytes: MiB }]),
      ]),
    );
  };

  it("gives the same roll-ups whether reports arrive in order, shuffled or late", async () => {
    const db = t.current.db;
    await enroll(db, { id: "in-order", owner: "carol" });
    await enroll(db, { id: "shuffled", owner: "carol" });
    const ordered = series("in-order");
    for (const r of ordered) await ingestReport(db, "in-order", r);
    const s = series("shuffled");
    for (const i of [4, 1, 3, 0, 2]) await ingestReport(db, "shuffled", s[i]);

    for (const day of [
      "2026-10-01",
      "2026-10-02",
      "2026-10-03",
      "2026-10-04",
      "2026-10-06",
      "2026-10-07",
      "2026-10-09",
    ]) {
      const daily = await rows<{ ws: string; bytes: number }>(
        db,
        sql`
        select workspace_id as ws, sum(bytes)::float8 as bytes from root_daily where day = ${day}::date group by 1 order by 1`,
      );
      const map = Object.fromEntries(daily.map((x) => [x.ws, Number(x.bytes)]));
      expect(map["shuffled"]).toBe(map["in-order"]);
    }
    // Fleet levels are twice one workspace's levels on every day when both got the same reports.
    for (const day of ["2026-10-01", "2026-10-02", "2026-10-03", "2026-10-04", "2026-10-07"]) {
      const levels = Object.fromEntries(Object.entries(await fleetLevels(db, day)).map(([a, v]) => [a, v.bytes]));
      const expected = Object.entries(expectedLevels(series("x"), day)).filter(([, v]) => v !== 0);
      expect(levels, day).toEqual(Object.fromEntries(expected.map(([a, v]) => [a, 2 * v])));
    }
    const latest = await rows<{ ws: string; rid: string }>(
      db,
      sql`select id as ws, last_report_id::text as rid from workspaces
      where id in ('in-order', 'shuffled') order by id`,
    );
    expect(latest.map((x) => x.rid)).toEqual([ordered[4].id, s[4].id]);
  });
});

/** One workspace's level per agent at the end of `day`, computed directly from the reports. */
function expectedLevels(reports: ReturnType<typeof makeReport>[], day: string): Record<string, number> {
  const upTo = reports.filter((r) => r.collectedAt.slice(0, 10) <= day);
  const last = upTo[upTo.length - 1];
  const out: Record<string, number> = {};
  for (const r of last?.roots ?? []) out[r.agent] = (out[r.agent] ?? 0) + r.bytes;
  return out;
}

describeEachDatabase("concurrent burst", (t) => {
  it("stores every report of a burst from many workspaces exactly once, duplicates included", async () => {
    const db = t.current.db;
    const fleet = Array.from({ length: 30 }, (_, i) => ({ id: `burst-${i}`, owner: `o${i % 7}` }));
    for (const w of fleet) await enroll(db, w);
    const reports = fleet.flatMap((w, i) =>
      Array.from({ length: 4 }, (_, k) =>
        makeReport(w, `2026-11-0${k + 1}T0${i % 10}:00:00.000Z`, [
          { key: "claude-code:data", agent: "claude-code", bytes: (k + 1) * MiB },
          { key: "codex:data", agent: "codex", bytes: MiB },
        ]),
      ),
    );
    // Every report is sent twice, all at once, in an order that interleaves workspaces.
    const results = await Promise.all([...reports, ...reports].map((r) => ingestReport(db, r.workspace.id, r)));
    expect(results.filter((r) => r.status === "stored")).toHaveLength(reports.length);
    expect(results.filter((r) => r.status === "duplicate")).toHaveLength(reports.length);
    expect(await count(db, "reports")).toBe(120);
    expect(await count(db, "root_usage")).toBe(240);
    expect(await count(db, "root_latest")).toBe(60);
    expect(await fleetLevels(db, "2026-11-30")).toEqual({
      "claude-code": { bytes: 30 * 4 * MiB, roots: 30 },
      codex: { bytes: 30 * MiB, roots: 30 },
    });
  });
});

describe("enrollment", () => {
  describeEachDatabase("tokens", (t) => {
    const identity = { id: "ws-enroll", name: "dev", owner: "dave" };
    it("issues a token for the right key only, and re-enrolls only with the current token", async () => {
      const db = t.current.db;
      const { key } = await getEnrollmentKey(db);
      await expect(enrollWorkspace(db, identity, "wrong", null)).rejects.toMatchObject({ status: 401 });
      await expect(enrollWorkspace(db, identity, null, null)).rejects.toMatchObject({ status: 401 });
      const first = await enrollWorkspace(db, identity, key, null);
      expect(first.token).toMatch(/^swt_/);
      await expect(enrollWorkspace(db, identity, key, null)).rejects.toMatchObject({ status: 409 });
      await expect(enrollWorkspace(db, identity, key, "swt_forged")).rejects.toMatchObject({ status: 409 });
      const second = await enrollWorkspace(db, identity, key, first.token);
      expect(second.token).not.toBe(first.token);
      await expect(enrollWorkspace(db, identity, key, first.token)).rejects.toMatchObject({ status: 409 });
    });

    it("enrolls again with the claim of an enrollment whose answer was lost, and with nothing else", async () => {
      const db = t.current.db;
      const { key } = await getEnrollmentKey(db);
      const ws = { ...identity, id: "ws-claim" };
      const claim = "c".repeat(43);
      const first = await enrollWorkspace(db, ws, key, null, claim);
      // The answer never arrived: the reporter asks again with the claim it kept, and gets a token of its own.
      const again = await enrollWorkspace(db, ws, key, null, claim);
      expect(again.token).not.toBe(first.token);
      await expect(authenticateWorkspace(db, first.token)).rejects.toMatchObject({ status: 401 });
      expect(await authenticateWorkspace(db, again.token)).toBe("ws-claim");
      // Another claim, or none, is someone else: refused.
      await expect(enrollWorkspace(db, ws, key, null, "d".repeat(43))).rejects.toMatchObject({ status: 409 });
      await expect(enrollWorkspace(db, ws, key, null)).rejects.toMatchObject({ status: 409 });
      // A re-enrollment with the token and a new claim replaces the old claim.
      await enrollWorkspace(db, ws, key, again.token, "e".repeat(43));
      await expect(enrollWorkspace(db, ws, key, null, claim)).rejects.toMatchObject({ status: 409 });
      expect((await enrollWorkspace(db, ws, key, null, "e".repeat(43))).token).toMatch(/^swt_/);
    });
  });
});
