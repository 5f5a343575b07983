// The files read back by an independent parser (csv-parse, strict: CRLF records, quotes as RFC 4180, no
// ragged rows) hold exactly the database's numbers, read here with SQL straight from the tables, and its text:
// names with commas, quotes, line breaks, non-ASCII letters and formula-looking starts come back as they
// were, a formula-looking one behind a leading '.
import { parse } from "csv-parse/sync";
import { sql } from "drizzle-orm";
import { beforeAll, expect, it } from "vitest";
import { makePrincipals } from "@/tests/support/auth";
import { describeEachDatabase, serveRoutesFrom } from "@/tests/support/db";
import { rowsOf } from "@/lib/db/types";
import { at, enroll, MiB, seedScenario, send, testNow, type WorkspaceSpec } from "@/tests/support/reports";
import { GET as findings } from "./findings.csv/route";
import { GET as usage } from "./usage.csv/route";
import { GET as workspaces } from "./workspaces.csv/route";

const ODD: WorkspaceSpec = {
  id: "ws-odd",
  name: '=HYPERLINK("http://x","y"), then\r\nmore',
  owner: 'Zoë "the" Ørsted, Jr.',
  template: "-tmpl\nnext line",
};
const ODD_PATH = '.odd dir/a,b "c"\nd/日本語';
const ODD_MODULE = "+acme, tools";

type Cells = Record<string, string>;
type Get = (request: Request, context: { params: Promise<object> }) => Promise<Response>;

/** What the file holds for a text: the text, behind a ' when a spreadsheet would run it (docs/api.md, "Export"). */
const written = (text: string | null) =>
  text === null ? "" : /^[=+\-@\t\r\n\uFF1D\uFF0B\uFF0D\uFF20]/.test(text) ? `'${text}` : text;

describeEachDatabase("exports parsed back", (t) => {
  let auth: Record<string, string> = {};

  async function download(get: Get, path: string): Promise<Cells[]> {
    const res = await get(new Request(`http://localhost/api/v1/export/${path}`, { headers: auth }), {
      params: Promise.resolve({}),
    });
    expect(res.status, path).toBe(200);
    const text = await res.text();
    expect(text.charCodeAt(0), "no byte-order mark").not.toBe(0xfeff);
    return parse(text, { columns: true, record_delimiter: "\r\n", bom: false });
  }

  async function select<T>(query: ReturnType<typeof sql>): Promise<T[]> {
    return rowsOf<T>(await t.current.db.execute(query));
  }

  beforeAll(async () => {
    const db = t.current.db;
    const now = testNow();
    await seedScenario(db, now);
    await enroll(db, ODD);
    const volume = { totalBytes: 8 * 1024 * MiB, freeBytes: 3 * 1024 * MiB + 17, usedBytes: 5 * 1024 * MiB - 4099 };
    await send(
      db,
      ODD,
      at(now, 2, 9),
      [
        {
          key: "codex:data",
          agent: "codex",
          bytes: 60 * MiB + 1,
          apparentBytes: 61 * MiB + 3,
          files: 1234,
          path: ODD_PATH,
        },
        {
          key: "acme/odd@tool",
          kind: "module",
          agent: "other",
          bytes: 4097,
          apparentBytes: 8192,
          files: 3,
          path: ODD_MODULE,
        },
      ],
      volume,
    );
    await send(
      db,
      ODD,
      at(now, 1, 21),
      [
        {
          key: "codex:data",
          agent: "codex",
          bytes: 70 * MiB + 7,
          apparentBytes: 71 * MiB,
          files: 2345,
          path: ODD_PATH,
        },
        {
          key: "acme/odd@tool",
          kind: "module",
          agent: "other",
          bytes: 4099,
          apparentBytes: 8192,
          files: 4,
          path: ODD_MODULE,
        },
      ],
      volume,
    );
    serveRoutesFrom(t.current);
    const p = await makePrincipals(t.current, "parsed");
    auth = { authorization: `Bearer ${p.viewerToken}` };
  });

  it("daily usage: every root_daily row of the range once, its numbers and names as stored", async () => {
    const rows = await download(usage, "usage.csv?range=30d");
    const stored = await select<{
      workspace_id: string;
      root_key: string;
      day: string;
      bytes: string;
      apparent_bytes: string;
      files: string;
      collected_at: Date | string;
      name: string;
      owner: string;
      template: string | null;
      agent: string;
      kind: string;
      path: string | null;
    }>(
      sql`select d.workspace_id, d.root_key, d.day::text as day, d.bytes::text as bytes, d.apparent_bytes::text as apparent_bytes,
          d.files::text as files, d.collected_at, w.name, w.owner, w.template, d.agent, d.kind, l.path
        from root_daily d join workspaces w on w.id = d.workspace_id
        left join root_latest l on l.workspace_id = d.workspace_id and l.root_key = d.root_key
        where d.day >= current_date - 29`,
    );
    expect(rows.length).toBe(stored.length);
    const byKey = new Map(stored.map((s) => [`${s.workspace_id}|${s.root_key}|${s.day}`, s]));
    for (const r of rows) {
      const s = byKey.get(`${r.workspace_id}|${r.root}|${r.day}`);
      expect(s, JSON.stringify(r)).toBeDefined();
      byKey.delete(`${r.workspace_id}|${r.root}|${r.day}`);
      expect([r.bytes, r.apparent_bytes, r.files]).toEqual([s!.bytes, s!.apparent_bytes, s!.files]);
      expect(r.time).toBe(new Date(s!.collected_at).toISOString());
      expect([r.workspace, r.owner, r.template, r.agent, r.kind, r.path]).toEqual(
        [s!.name, s!.owner, s!.template, s!.agent, s!.kind, s!.path].map(written),
      );
    }
    const [total] = await select<{ bytes: string; files: string }>(
      sql`select sum(bytes)::text as bytes, sum(files)::text as files from root_daily where day >= current_date - 29`,
    );
    expect(String(rows.reduce((sum, r) => sum + BigInt(r.bytes), 0n))).toBe(total.bytes);
    expect(String(rows.reduce((sum, r) => sum + BigInt(r.files), 0n))).toBe(total.files);
    // The awkward names came through: the formula-looking ones behind a '.
    const odd = rows.filter((r) => r.workspace_id === ODD.id);
    expect(odd.map((r) => [r.day, r.root, r.bytes])).toEqual([
      [at(testNow(), 2).slice(0, 10), "acme/odd@tool", "4097"],
      [at(testNow(), 1).slice(0, 10), "acme/odd@tool", "4099"],
      [at(testNow(), 2).slice(0, 10), "codex:data", String(60 * MiB + 1)],
      [at(testNow(), 1).slice(0, 10), "codex:data", String(70 * MiB + 7)],
    ]);
    expect(odd[0]).toMatchObject({
      workspace: `'${ODD.name}`,
      owner: ODD.owner,
      template: `'${ODD.template}`,
      path: `'${ODD_MODULE}`,
    });
    expect(odd[2].path).toBe(ODD_PATH);
  });

  it("report usage: every root of every report in the range once, as root_usage holds it", async () => {
    const rows = await download(usage, "usage.csv?range=30d&granularity=report");
    const stored = await select<{
      report_id: string;
      root_key: string;
      bytes: string;
      apparent_bytes: string;
      files: string;
      collected_at: Date | string;
      path: string;
    }>(
      sql`select u.report_id::text as report_id, u.root_key, u.bytes::text as bytes, u.apparent_bytes::text as apparent_bytes,
          u.files::text as files, r.collected_at, u.path
        from root_usage u join reports r on r.id = u.report_id where r.collected_at >= current_date - 29`,
    );
    expect(rows.length).toBe(stored.length);
    const byKey = new Map(stored.map((s) => [`${s.report_id}|${s.root_key}`, s]));
    for (const r of rows) {
      const s = byKey.get(`${r.report_id}|${r.root}`)!;
      expect(s, JSON.stringify(r)).toBeDefined();
      expect([r.bytes, r.apparent_bytes, r.files, r.time, r.path]).toEqual([
        s.bytes,
        s.apparent_bytes,
        s.files,
        new Date(s.collected_at).toISOString(),
        written(s.path),
      ]);
    }
    expect(new Set(rows.map((r) => `${r.report_id}|${r.root}`)).size).toBe(rows.length);
    const [total] = await select<{ bytes: string }>(
      sql`select sum(u.bytes)::text as bytes from root_usage u join reports r on r.id = u.report_id where r.collected_at >= current_date - 29`,
    );
    expect(String(rows.reduce((sum, r) => sum + BigInt(r.bytes), 0n))).toBe(total.bytes);
  });

  it("workspaces: totals, root counts and the volume as the workspaces table holds them", async () => {
    const rows = await download(workspaces, "workspaces.csv?sort=name&dir=asc");
    const stored = await select<{
      id: string;
      name: string;
      owner: string;
      template: string | null;
      total_bytes: string;
      root_count: number;
      largest_agent_bytes: string | null;
      volume_total_bytes: string | null;
      volume_free_bytes: string | null;
      volume_used_bytes: string | null;
    }>(
      sql`select id, name, owner, template, total_bytes::text as total_bytes, root_count, largest_agent_bytes::text as largest_agent_bytes,
          volume_total_bytes::text as volume_total_bytes, volume_free_bytes::text as volume_free_bytes, volume_used_bytes::text as volume_used_bytes
        from workspaces`,
    );
    expect(rows.map((r) => r.id).sort()).toEqual(stored.map((s) => s.id).sort());
    for (const s of stored) {
      const r = rows.find((row) => row.id === s.id)!;
      expect([r.name, r.owner, r.template]).toEqual([s.name, s.owner, s.template].map(written));
      expect([r.total_bytes, r.root_count, r.largest_agent_bytes]).toEqual([
        s.total_bytes,
        String(s.root_count),
        s.largest_agent_bytes ?? "",
      ]);
      expect([r.volume_size_bytes, r.volume_avail_bytes]).toEqual([
        s.volume_total_bytes ?? "",
        s.volume_free_bytes ?? "",
      ]);
      if (s.volume_used_bytes !== null) expect(r.volume_used_bytes).toBe(s.volume_used_bytes);
    }
    const [latest] = await select<{ bytes: string }>(
      sql`select sum(bytes)::text as bytes from root_latest where workspace_id = ${ODD.id}`,
    );
    expect(rows.find((r) => r.id === ODD.id)).toMatchObject({
      total_bytes: latest.bytes,
      root_count: "2",
      volume_avail_bytes: String(3 * 1024 * MiB + 17),
    });
  });

  it("findings: a root's size as root_latest holds it, its workspace's names as written", async () => {
    const rows = await download(findings, "findings.csv");
    const latest = await select<{ workspace_id: string; root_key: string; bytes: string; name: string; owner: string }>(
      sql`select l.workspace_id, l.root_key, l.bytes::text as bytes, w.name, w.owner from root_latest l join workspaces w on w.id = l.workspace_id`,
    );
    const oversize = rows.filter((r) => r.rule === "root-oversize");
    expect(oversize.map((r) => r.workspace_id).sort()).toEqual(["ws-a", "ws-b", "ws-d", ODD.id]);
    for (const r of rows.filter((row) => row.root !== "")) {
      const l = latest.find((x) => x.workspace_id === r.workspace_id && x.root_key === r.root)!;
      expect([r.workspace, r.owner], JSON.stringify(r)).toEqual([written(l.name), written(l.owner)]);
      // The rule is about the whole root: its size, and no path of an entry in it.
      if (r.rule === "root-oversize") expect([r.value, r.unit, r.path]).toEqual([l.bytes, "bytes", ""]);
    }
    expect(oversize.find((r) => r.workspace_id === ODD.id)).toMatchObject({
      value: String(70 * MiB + 7),
      threshold: String(50 * MiB),
      root: "codex:data",
      workspace: `'${ODD.name}`,
      owner: ODD.owner,
    });
  });
});
