import { sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { KEPT_AGGREGATES_LOCK } from "@/lib/db/advisory-locks";
import { openPostgres } from "@/lib/db/open";
import { createScratchPostgres, describeEachDatabase, openMigratedEmbedded } from "@/tests/support/db";
import { rowsOf, type Db } from "@/lib/db/types";
import { getRules } from "@/lib/db/queries/findings";
import { callIngestReports } from "@/lib/db/queries/ingest";
import { figuresAsOf, refreshKeptPending } from "@/lib/db/queries/kept-pending";
import { groupedRuleRows, KEPT_RULE_IDS } from "@/lib/db/queries/rule-rows";
import { KeptRefresher, keptRefresherFor, REFRESH_DELAY_MS } from "@/lib/ingest/kept-refresh";
import { at, enroll, makeReport, MiB, testNow, type WorkspaceSpec } from "@/tests/support/reports";

// The kept aggregates are rewritten after the acknowledgement, from the marks ingest leaves in its transaction:
// a process that dies between the two leaves the marks, which the next refresher takes; two refreshers at once
// (two instances) neither fail nor lose a mark; reports that keep arriving during refreshes all end up counted.

const FLEET: WorkspaceSpec[] = Array.from({ length: 6 }, (_, i) => ({ id: `kr-${i}`, owner: "o" }));

const json = (rows: Record<string, unknown>[]) => rows.map((r) => JSON.stringify(r)).sort();

/** The kept rows against what the rules and sums compute from the latest roots now. */
async function keptAndLive(db: Db) {
  const rules = await getRules(db);
  const f = sql`rule_id, workspace_id, agent_key, n, total::text, urgency::text, members`;
  const s = sql`workspace_id, key, bytes::text, roots`;
  return {
    kept: {
      findings: json(rowsOf(await db.execute(sql`select ${f} from kept_findings`))),
      series: json(rowsOf(await db.execute(sql`select ${s} from workspace_series`))),
    },
    live: {
      findings: json(rowsOf(await db.execute(sql`select ${f} from (${groupedRuleRows(KEPT_RULE_IDS, rules)}) x`))),
      series: json(
        rowsOf(
          await db.execute(sql`select ${s} from (select workspace_id, case when kind = 'script-data' then 'script-data'
            when kind = 'module' and agent = 'other' then 'modules' else agent end as key, sum(bytes)::bigint as bytes,
            count(*)::int as roots from root_latest group by 1, 2) x`),
        ),
      ),
    },
  };
}

const marked = async (db: Db) =>
  rowsOf<{ workspace_id: string }>(await db.execute(sql`select workspace_id from kept_pending order by 1`)).map(
    (r) => r.workspace_id,
  );

/** Stores one report per workspace as the queue would (acknowledged) without poking any refresher. */
async function ingestUnrefreshed(db: Db, hour: number, grow: number) {
  const now = testNow();
  const items = FLEET.map((ws, i) => ({
    report: makeReport(ws, at(now, 0, hour), [
      { key: "claude:sessions", agent: "claude-code", bytes: (600 + grow + i) * MiB },
      { key: "acme/tool", kind: "module", agent: "other", bytes: (60 + grow + i) * MiB },
    ]),
    receivedAt: new Date(at(now, 0, hour)),
  }));
  return callIngestReports(db, items, 0);
}

describeEachDatabase("kept aggregates refreshed after the acknowledgement", (t) => {
  beforeAll(async () => {
    for (const ws of FLEET) await enroll(t.current.db, ws);
  });

  it("keeps the marks of a crash between acknowledgement and refresh for the next refresher", async () => {
    const db = t.current.db;
    expect(await ingestUnrefreshed(db, 1, 0)).toEqual(FLEET.map(() => "stored"));
    // Acknowledged, then the process died: the marks are stored, the aggregates are behind and say so.
    expect(await marked(db)).toEqual(FLEET.map((w) => w.id).sort());
    const pendingSince = rowsOf<{ at: Date | string }>(
      await db.execute(sql`select min(marked_at) as at from kept_pending`),
    );
    expect(await figuresAsOf(db)).toEqual(new Date(pendingSince[0].at));
    const behind = await keptAndLive(db);
    expect(behind.kept.series).not.toEqual(behind.live.series);

    // The next process's refresher takes them.
    await new KeptRefresher(db).drain();
    expect(await marked(db)).toEqual([]);
    // Nothing waits: the figures hold every report, up to the newest one's arrival.
    const newest = rowsOf<{ at: Date | string }>(await db.execute(sql`select max(last_seen_at) as at from workspaces`));
    expect(await figuresAsOf(db)).toEqual(new Date(newest[0].at));
    const after = await keptAndLive(db);
    expect(after.kept.findings.length).toBeGreaterThan(0);
    expect(after.kept).toEqual(after.live);
  });

  it("lets two refreshers run at once without failing, rewriting twice or losing a mark", async () => {
    const db = t.current.db;
    await ingestUnrefreshed(db, 2, 50);
    const outcomes = await Promise.all([refreshKeptPending(db, 4), refreshKeptPending(db, 4)]);
    // One pass at a time: the other steps aside (on Postgres) or follows it (the embedded database's one
    // connection), and no workspace is rewritten by both.
    const done = outcomes.filter((ids): ids is string[] => ids !== null);
    expect(done.flat().length).toBeLessThanOrEqual(FLEET.length);
    await Promise.all([new KeptRefresher(db).drain(), new KeptRefresher(db).drain()]);
    expect(await marked(db)).toEqual([]);
    const after = await keptAndLive(db);
    expect(after.kept).toEqual(after.live);
  });

  it("counts every report that arrives while refreshers run", async () => {
    const db = t.current.db;
    const a = new KeptRefresher(db, 0);
    const b = new KeptRefresher(db, 0);
    for (let round = 0; round < 6; round++) {
      await ingestUnrefreshed(db, 3 + round, 100 + round * 10);
      a.poke();
      b.poke();
    }
    await Promise.all([a.drain(), b.drain()]);
    expect(await marked(db)).toEqual([]);
    const after = await keptAndLive(db);
    expect(after.kept).toEqual(after.live);
  });
});

// Needs a second session, which the embedded database does not have: it holds a pass at its lock after the marks
// are read, and renews one mark meanwhile, as a report arriving then would.
describe("a busy workspace's figures [postgres]", () => {
  let scratch: Awaited<ReturnType<typeof createScratchPostgres>>;
  let database: Awaited<ReturnType<typeof openPostgres>>;
  beforeAll(async () => {
    scratch = await createScratchPostgres({ migrated: true });
    database = await openPostgres(scratch.url, 2);
  }, 180_000);
  afterAll(async () => {
    await database?.close();
    await scratch?.drop();
  });

  it("moves a mark renewed during a pass up to the pass, and keeps it for the newer report", async () => {
    const db = database.db;
    for (const ws of FLEET) await enroll(db, ws);
    await ingestUnrefreshed(db, 10, 200);
    const before = new Map(
      rowsOf<{ workspace_id: string; at: string }>(
        await db.execute(sql`select workspace_id, marked_at::text as at from kept_pending`),
      ).map((r) => [r.workspace_id, r.at]),
    );
    const other = new pg.Client({ connectionString: scratch.url });
    await other.connect();
    try {
      await other.query("begin");
      await other.query("select pg_advisory_xact_lock($1)", [KEPT_AGGREGATES_LOCK]);
      const pass = refreshKeptPending(db);
      await vi.waitFor(async () => {
        const { rows } = await other.query("select 1 from pg_locks where locktype = 'advisory' and not granted");
        expect(rows.length).toBe(1);
      });
      await other.query(
        "insert into kept_pending (workspace_id) values ($1) on conflict (workspace_id) do update set version = excluded.version",
        [FLEET[0].id],
      );
      await other.query("commit");
      expect(await pass).toHaveLength(FLEET.length);
    } finally {
      await other.end();
    }
    const left = rowsOf<{ workspace_id: string; later: boolean; now: boolean }>(
      await db.execute(sql`select workspace_id, marked_at > ${before.get(FLEET[0].id)}::timestamptz as later,
        marked_at <= now() as now from kept_pending`),
    );
    expect(left).toEqual([{ workspace_id: FLEET[0].id, later: true, now: true }]);
    await new KeptRefresher(db).drain();
    expect(await marked(db)).toEqual([]);
  });
});

describe("a refresher stops when its database closes", () => {
  // A pass scheduled by the last batch used to fire after close(): "Cannot use a pool after calling end".
  it.each(["embedded", "postgres"] as const)(
    "%s: no pass after close, and the marks stay for the next process",
    async (kind) => {
      const scratch = kind === "postgres" ? await createScratchPostgres({ migrated: true }) : null;
      const database = scratch ? await openPostgres(scratch.url, 2) : await openMigratedEmbedded();
      const failures = vi.spyOn(console, "error");
      try {
        for (const ws of FLEET) await enroll(database.db, ws);
        await ingestUnrefreshed(database.db, 1, 0);
        keptRefresherFor(database.db).poke();
        await database.close();
        await new Promise((r) => setTimeout(r, REFRESH_DELAY_MS * 3));
        expect(failures.mock.calls.filter(([m]) => String(m).startsWith("[kept]"))).toEqual([]);
        if (scratch) {
          const again = await openPostgres(scratch.url, 1);
          expect(await marked(again.db)).toEqual(FLEET.map((w) => w.id).sort());
          await again.close();
        }
      } finally {
        failures.mockRestore();
        await scratch?.drop();
      }
    },
  );
});
