import { sql } from "drizzle-orm";
import { beforeAll, expect, it } from "vitest";
import { describeEachDatabase } from "@/tests/support/db";
import { rowsOf } from "@/lib/db/types";
import { listFindings } from "@/lib/db/queries/findings";
import { ingestReport } from "@/lib/ingest/report";
import { keptRefresherFor } from "@/lib/ingest/kept-refresh";
import {
  agentRetention as agentRetentionSchema,
  report as reportSchema,
  storageRoot,
  volume as volumeSchema,
  type Report,
} from "@/lib/report-format/schema";
import { enroll, MiB } from "@/tests/support/reports";
import { FLEET } from "@/lib/db/scope";

// The ingest function reads the report's JSON by field name. Every field of a report is filled here with a
// distinct value and read back from every table it lands in, so a field renamed on one side fails this test
// instead of quietly storing nulls. The key lists are checked against the zod schema: a new field must be
// added here (and stored) before the suite passes. Both ingest paths are read back: the report stored as its
// workspace's newest, and a late one (collected the day before, sent after it), which ingest_late_report stores.

const WS = { id: "ws-fields", name: "fields", owner: "fiona", template: "full", agent: "main" };
const REPORT: Report = reportSchema.parse({
  version: 1,
  id: "0b9a7f3e-8a4c-4c1e-9d55-3b1f2e6a7c11",
  collectedAt: "2026-11-20T10:15:00.000Z",
  workspace: WS,
  volume: {
    totalBytes: 20_000 * MiB,
    usedBytes: 7_000 * MiB,
    freeBytes: 12_000 * MiB,
    inodes: { total: 1_310_720, used: 210_001, free: 1_100_719 },
  },
  reporter: { version: "0.2.0", scanMs: 1234.5 },
  errors: [{ path: ".claude/locked", code: "EACCES", message: "permission denied" }],
  agentRetention: {
    "claude-code": {
      state: "set",
      source: "/etc/claude-code/managed-settings.d/10-coder.json",
      cleanupPeriodDays: 90,
    },
    gemini: {
      state: "set",
      source: ".gemini/settings.json",
      enabled: true,
      maxAge: "14d",
      maxCount: 40,
      minRetention: "2d",
    },
    codex: { state: "unreadable", source: ".codex/config.toml", reason: "not valid TOML (line 2, column 13)" },
    opencode: { state: "absent" },
  },
  roots: [
    {
      key: "coder/claude-code",
      kind: "module",
      agent: "claude-code",
      path: ".coder-modules/coder/claude-code",
      bytes: 196_608,
      apparentBytes: 150_001,
      files: 7,
      dirs: 3,
      oldestMtime: "2026-10-01T08:00:00.000Z",
      newestMtime: "2026-11-20T09:00:00.000Z",
      categories: { logs: { bytes: 100_000, files: 4 }, other: { bytes: 96_608, files: 3 } },
      ages: { "1d": { bytes: 4096, files: 1 }, older: { bytes: 192_512, files: 6 } },
      largest: [{ path: "logs/agent.log", bytes: 90_112, mtime: "2026-11-19T09:00:00.000Z", type: "file" }],
      leftovers: [{ path: "agentapi-state.json", bytes: 4096, apparentBytes: 900, mtime: "2026-09-01T00:00:00.000Z" }],
      recipes: {
        "module-logs": {
          units: 4,
          bytes: 100_000,
          protectedUnits: 1,
          protectedBytes: 4096,
          byAge: [
            [1, 4096],
            [0, 0],
            [3, 95_904],
          ],
        },
        "agentapi-leftovers": {
          units: 1,
          bytes: 4096,
          protectedUnits: 0,
          protectedBytes: 0,
          byAge: [
            [0, 0],
            [1, 4096],
          ],
        },
      },
      orphaned: false,
      unreadable: 2,
    },
    {
      key: "script-data:1111",
      kind: "script-data",
      agent: "other",
      path: ".coder-script-data/1111",
      bytes: 8192,
      apparentBytes: 10,
      files: 1,
      dirs: 1,
      orphaned: true,
    },
  ],
});

const LATE: Report = { ...REPORT, id: "5c0e2d41-7f3a-4b8e-a1d6-0e9c4b2f8a35", collectedAt: "2026-11-19T10:15:00.000Z" };
const PATHS = [
  { path: "in order", report: REPORT },
  { path: "late", report: LATE },
];

const ROOT_FIELDS = [
  "key",
  "kind",
  "agent",
  "path",
  "bytes",
  "apparentBytes",
  "files",
  "dirs",
  "oldestMtime",
  "newestMtime",
  "categories",
  "ages",
  "largest",
  "leftovers",
  "recipes",
  "orphaned",
  "unreadable",
] as const;
const VOLUME_FIELDS = ["totalBytes", "usedBytes", "freeBytes", "inodes"] as const;
const RETENTION_FIELDS = {
  "claude-code": ["state", "source", "reason", "cleanupPeriodDays"],
  gemini: ["state", "source", "reason", "enabled", "maxAge", "maxCount", "minRetention"],
  codex: ["state", "source", "reason", "historyMaxBytes"],
  opencode: ["state", "source", "reason", "snapshot"],
} as const;

it("covers every field of the report schema", () => {
  expect([...ROOT_FIELDS].sort()).toEqual(Object.keys(storageRoot.shape).sort());
  expect([...VOLUME_FIELDS].sort()).toEqual(Object.keys(volumeSchema.shape).sort());
  expect(Object.keys(REPORT.roots[0]).sort()).toEqual([...ROOT_FIELDS].sort());
  // Every agent and every key of its retention setting: stored as one jsonb, so a key the schema gains is stored
  // with it; listed here so that a new agent or key is looked at (the report above carries each state).
  const shape = agentRetentionSchema.shape;
  expect(Object.keys(RETENTION_FIELDS).sort()).toEqual(Object.keys(shape).sort());
  for (const [agent, keys] of Object.entries(RETENTION_FIELDS)) {
    const inner = (shape[agent as keyof typeof shape].unwrap() as { shape: object }).shape;
    expect([...keys].sort(), agent).toEqual(Object.keys(inner).sort());
  }
});

const json = <T>(v: T | string): T => (typeof v === "string" ? (JSON.parse(v) as T) : v);
const iso = (v: Date | string | null) => (v === null ? null : new Date(v).toISOString());

describeEachDatabase("ingest stores every field of a report", (t) => {
  beforeAll(async () => {
    await enroll(t.current.db, WS);
    await ingestReport(t.current.db, WS.id, REPORT, new Date("2026-11-20T10:16:00.000Z"));
    const late = await ingestReport(t.current.db, WS.id, LATE, new Date("2026-11-20T10:17:00.000Z"));
    expect(late.newest).toBe(false);
    await keptRefresherFor(t.current.db).drain();
  });

  const read = async (q: ReturnType<typeof sql>) => rowsOf<Record<string, unknown>>(await t.current.db.execute(q));

  it.each(PATHS)("stores the report's own fields ($path)", async ({ report }) => {
    const [r] = await read(sql`select * from reports where id = ${report.id}::uuid`);
    const v = REPORT.volume!;
    expect({
      workspace: r.workspace_id,
      collected: iso(r.collected_at as string),
      version: r.reporter_version,
      scanMs: Number(r.scan_ms),
      total: Number(r.volume_total_bytes),
      free: Number(r.volume_free_bytes),
      used: Number(r.volume_used_bytes),
      inodes: {
        total: Number(r.volume_inodes_total),
        used: Number(r.volume_inodes_used),
        free: Number(r.volume_inodes_free),
      },
      errors: json(r.errors),
      agentRetention: json(r.agent_retention),
      bytes: Number(r.total_bytes),
      roots: Number(r.root_count),
    }).toEqual({
      workspace: WS.id,
      collected: report.collectedAt,
      version: "0.2.0",
      scanMs: 1234.5,
      total: v.totalBytes,
      free: v.freeBytes,
      used: v.usedBytes,
      inodes: v.inodes,
      errors: REPORT.errors,
      agentRetention: REPORT.agentRetention,
      bytes: 196_608 + 8192,
      roots: 2,
    });
  });

  it.each([
    { table: "root_usage", report: REPORT },
    { table: "root_usage", report: LATE },
    { table: "root_latest", report: REPORT },
  ])("stores every root field in $table (report of $report.collectedAt)", async ({ table, report }) => {
    const rows = await read(
      sql`select * from ${sql.identifier(table)} where workspace_id = ${WS.id} and report_id = ${report.id}::uuid order by root_key`,
    );
    const back = rows.map((r) => ({
      key: r.root_key,
      kind: r.kind,
      agent: r.agent,
      path: r.path,
      bytes: Number(r.bytes),
      apparentBytes: Number(r.apparent_bytes),
      files: Number(r.files),
      dirs: Number(r.dirs),
      oldestMtime: iso(r.oldest_mtime as string | null),
      newestMtime: iso(r.newest_mtime as string | null),
      categories: json(r.categories),
      ages: json(r.ages),
      largest: json(r.largest),
      leftovers: json(r.leftovers),
      recipes: json(r.recipes),
      orphaned: r.orphaned,
      unreadable: Number(r.unreadable),
    }));
    const defaults = {
      oldestMtime: null,
      newestMtime: null,
      categories: {},
      ages: {},
      largest: [],
      leftovers: [],
      recipes: {},
      unreadable: 0,
    };
    expect(back, table).toEqual(REPORT.roots.map((root) => ({ ...defaults, ...root })));
  });

  it.each(PATHS)("stores the day's roll-ups ($path)", async ({ report }) => {
    const day = report.collectedAt.slice(0, 10);
    const daily = await read(
      sql`select root_key, bytes, apparent_bytes, files, kind, agent from root_daily where workspace_id = ${WS.id} and day = ${day} order by root_key`,
    );
    expect(
      daily.map((r) => [r.root_key, Number(r.bytes), Number(r.apparent_bytes), Number(r.files), r.kind, r.agent]),
    ).toEqual([
      ["coder/claude-code", 196_608, 150_001, 7, "module", "claude-code"],
      ["script-data:1111", 8192, 10, 1, "script-data", "other"],
    ]);
    const [d] = await read(sql`select * from workspace_daily where workspace_id = ${WS.id} and day = ${day}`);
    expect([
      Number(d.bytes),
      Number(d.volume_total_bytes),
      Number(d.volume_used_bytes),
      Number(d.volume_free_bytes),
    ]).toEqual([204_800, 20_000 * MiB, 7_000 * MiB, 12_000 * MiB]);
  });

  it("stores the workspace's summary", async () => {
    const [w] = await read(sql`select * from workspaces where id = ${WS.id}`);
    expect({
      name: w.name,
      owner: w.owner,
      template: w.template,
      agent: w.agent_name,
      total: Number(w.total_bytes),
      roots: Number(w.root_count),
      used: Number(w.volume_used_bytes),
      pct: Number(w.volume_used_pct),
      ipct: Number(w.volume_inodes_used_pct),
      inodes: [Number(w.volume_inodes_total), Number(w.volume_inodes_used), Number(w.volume_inodes_free)],
      agentRetention: json(w.agent_retention),
    }).toEqual({
      name: "fields",
      owner: "fiona",
      template: "full",
      agent: "main",
      total: 204_800,
      roots: 2,
      // df: 7000 ÷ (7000 + 12000) = 36.8 % → 37 %; 210001 ÷ 1310720 = 16.02 % → 17 %.
      used: 7_000 * MiB,
      pct: 37,
      ipct: 17,
      inodes: [1_310_720, 210_001, 1_100_719],
      agentRetention: REPORT.agentRetention,
    });
  });

  it("stores no retention settings for a report without them (an older reporter), in history and on the workspace", async () => {
    const OLD: Report = {
      ...REPORT,
      id: "9d3c1b2a-4e5f-4a6b-8c7d-1e2f3a4b5c6d",
      collectedAt: "2026-11-20T11:15:00.000Z",
    };
    delete OLD.agentRetention;
    await ingestReport(t.current.db, WS.id, OLD, new Date("2026-11-20T11:16:00.000Z"));
    const [r] = await read(sql`select agent_retention from reports where id = ${OLD.id}::uuid`);
    const [w] = await read(sql`select agent_retention from workspaces where id = ${WS.id}`);
    expect([r.agent_retention, w.agent_retention]).toEqual([null, null]);
  });

  it("names the AgentAPI leftovers listed inside a root as a finding on that root", async () => {
    const f = await listFindings(t.current.db, FLEET, {
      workspace: WS.id,
      rule: "agentapi-leftover",
      now: new Date("2026-11-20T12:00:00Z"),
    });
    expect(f.findings.map((x) => [x.rootKey, x.path, x.value])).toEqual([
      ["coder/claude-code", "agentapi-state.json", 4096],
    ]);
  });
});
