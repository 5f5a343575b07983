import { sql } from "drizzle-orm";
import { beforeAll, expect, it } from "vitest";
import type { SomeCsvExport } from "@/lib/csv/columns";
import { openCsvStream } from "@/lib/csv/stream";
import { copyPool } from "@/lib/db/copy-csv";
import { describeEachDatabase } from "@/tests/support/db";
import { usageExportQuery } from "@/lib/validations/export";
import { at, dayAgo, send, type WorkspaceSpec, enroll, testNow } from "@/tests/support/reports";
import { usageExport } from "./usage";
import { listWorkspaces } from "@/lib/db/queries/workspace-list";
import { workspacesExport } from "./lists";
import { FLEET } from "@/lib/db/scope";

// The file writer's file, whichever database: the embedded database's way, and the yardstick of COPY's.
const csv = async (exp: SomeCsvExport, chunkRows?: number) =>
  new Response(await openCsvStream(exp, { chunkRows })).text();

/** PostgreSQL's COPY of the same export (exp.open), or null where there is none (the embedded database). */
const copied = async (exp: SomeCsvExport) => (exp.open ? new Response(await exp.open(() => {})).text() : null);

// Reporters send these names and paths; each is a formula, a quote, a separator or a line break in disguise.
const WS_H: WorkspaceSpec = { id: "ws-h", name: '=HYPERLINK("http://evil","x")', owner: "+1", template: "-2+3" };
const WS_Q: WorkspaceSpec = { id: "ws-q", name: 'say "hi", then\nleave', owner: "@SUM(A1)", template: "\t=1" };
const WS_U: WorkspaceSpec = { id: "ws-u", name: "café-日本", owner: "\r=1" };

describeEachDatabase("usage export", (t) => {
  const now = testNow();
  const q = (params: Record<string, unknown> = {}) => usageExportQuery.parse(params);
  const reportIds: string[] = [];
  beforeAll(async () => {
    const db = t.current.db;
    for (const ws of [WS_H, WS_Q, WS_U]) await enroll(db, ws);
    const claude = (bytes: number) => ({ key: "claude-code:data", agent: "claude-code", bytes, path: ".claude" });
    const codex = (bytes: number) => ({ key: "codex:data", agent: "codex", bytes, path: "=cmd|' /C calc'!A0" });
    const sent = [
      await send(db, WS_H, at(now, 2, 10), [claude(1000), codex(2000)]),
      await send(db, WS_H, at(now, 1, 9), [claude(1500), codex(2000)]),
      await send(db, WS_H, at(now, 1, 11), [claude(1600), codex(2100)]),
      await send(db, WS_Q, at(now, 1, 8), [
        { key: "gemini:data", agent: "gemini", bytes: 300, path: '-2+3,"x"\nnext' },
      ]),
      await send(db, WS_U, at(now, 8, 10), [claude(3048)]),
      await send(db, WS_U, at(now, 0, 10), [claude(2024)]),
    ];
    reportIds.push(...sent.map((s) => s.reportId));
  });

  const HEAD =
    "workspace_id,workspace,owner,template,organization,groups,agent,kind,root,path,bytes,apparent_bytes,files";
  // Organization and groups empty: no sync has read them.
  const H = `ws-h,"'=HYPERLINK(""http://evil"",""x"")",'+1,'-2+3,,`;
  const Q = `ws-q,"say ""hi"", then\nleave",'@SUM(A1),'\t=1,,`;
  const U = `ws-u,café-日本,"'\r=1",,,`;
  const claudeH = "claude-code,tool,claude-code:data,.claude";
  const codexH = "codex,tool,codex:data,'=cmd|' /C calc'!A0";
  const DAILY =
    `time,day,${HEAD}\r\n` +
    `${at(now, 2, 10)},${dayAgo(now, 2)},${H},${claudeH},1000,1000,1\r\n` +
    `${at(now, 1, 11)},${dayAgo(now, 1)},${H},${claudeH},1600,1600,1\r\n` +
    `${at(now, 2, 10)},${dayAgo(now, 2)},${H},${codexH},2000,2000,1\r\n` +
    `${at(now, 1, 11)},${dayAgo(now, 1)},${H},${codexH},2100,2100,1\r\n` +
    `${at(now, 1, 8)},${dayAgo(now, 1)},${Q},gemini,tool,gemini:data,"'-2+3,""x""\nnext",300,300,1\r\n` +
    `${at(now, 0, 10)},${dayAgo(now, 0)},${U},${claudeH},2024,2024,1\r\n`;

  it("writes one row per workspace, root and day, neutralised and quoted to the byte", async () => {
    const exp = usageExport(t.current.db, FLEET, q({ range: "7d" }), { now });
    expect(exp.filename).toBe(`usage-${dayAgo(now, 6)}-${dayAgo(now, 0)}.csv`);
    expect(await csv(exp)).toBe(DAILY);
  });

  it("writes every root of every report at report granularity", async () => {
    const [h1, h2, h3, q1, , u2] = reportIds;
    const row = (time: string, id: string, rest: string) => `${time},${id},${rest}\r\n`;
    expect(await csv(usageExport(t.current.db, FLEET, q({ range: "7d", granularity: "report" }), { now }))).toBe(
      `time,report_id,${HEAD}\r\n` +
        row(at(now, 2, 10), h1, `${H},${claudeH},1000,1000,1`) +
        row(at(now, 2, 10), h1, `${H},${codexH},2000,2000,1`) +
        row(at(now, 1, 9), h2, `${H},${claudeH},1500,1500,1`) +
        row(at(now, 1, 9), h2, `${H},${codexH},2000,2000,1`) +
        row(at(now, 1, 11), h3, `${H},${claudeH},1600,1600,1`) +
        row(at(now, 1, 11), h3, `${H},${codexH},2100,2100,1`) +
        row(at(now, 1, 8), q1, `${Q},gemini,tool,gemini:data,"'-2+3,""x""\nnext",300,300,1`) +
        row(at(now, 0, 10), u2, `${U},${claudeH},2024,2024,1`),
    );
  });

  it("pages by key across page boundaries: every row once, in order, whatever the page size", async () => {
    for (const granularity of ["daily", "report"] as const) {
      const whole = await csv(usageExport(t.current.db, FLEET, q({ range: "30d", granularity }), { now }));
      const rows = whole.split("\r\n").length - 2;
      for (const pageSize of [1, 2, 3]) {
        let pages = 0;
        const exp = usageExport(t.current.db, FLEET, q({ range: "30d", granularity }), {
          now,
          pageSize,
          onPage: () => pages++,
        });
        expect(await csv(exp, 2)).toBe(whole);
        expect(pages).toBe(Math.floor(rows / pageSize) + 1);
      }
    }
  });

  it("filters by range, workspaces, owner, template, agent and root", async () => {
    const lines = async (params: Record<string, unknown>) =>
      (await csv(usageExport(t.current.db, FLEET, q({ range: "30d", ...params }), { now }))).split("\r\n").slice(1, -1);
    const yesterday = dayAgo(now, 1);
    expect(await lines({ range: "custom", from: yesterday, to: yesterday })).toHaveLength(3);
    expect(await lines({ workspace: "ws-h" })).toHaveLength(4);
    expect(await lines({ workspace: ["ws-h", "ws-u"] })).toHaveLength(6);
    expect(await lines({ workspace: "ws-q,ws-u" })).toHaveLength(3);
    expect(await lines({ owner: "+1" })).toHaveLength(4);
    expect(await lines({ template: "\t=1" })).toHaveLength(1);
    expect((await lines({ agent: "codex" })).every((l) => l.includes(",codex:data,"))).toBe(true);
    expect(await lines({ root: "claude-code:data", granularity: "report" })).toHaveLength(5);
    expect(await lines({ root: ["claude-code:data", "gemini:data"], workspace: "ws-q" })).toHaveLength(1);
    expect(await lines({ workspace: "nobody" })).toEqual([]);
    // A list is read a workspace at a time, in the same order as the whole export, across page boundaries.
    for (const granularity of ["daily", "report"] as const) {
      const all = (await lines({ granularity })).filter((l) => !l.includes(",ws-q,"));
      const listed = (
        await csv(
          usageExport(t.current.db, FLEET, q({ range: "30d", granularity, workspace: "ws-u,nobody,ws-h" }), {
            now,
            pageSize: 2,
          }),
        )
      )
        .split("\r\n")
        .slice(1, -1);
      expect(listed).toEqual(all);
    }
  });

  it("stops reading pages when the client disconnects", async () => {
    if (t.current.kind === "postgres") {
      // COPY a batch at a time: cancelled after the first, no further batch is started.
      let batches = 0;
      const exp = usageExport(t.current.db, FLEET, q({ range: "30d", granularity: "report" }), {
        now,
        batchRows: 1,
        onPage: () => batches++,
      });
      const pool = copyPool(t.current.db)!;
      const reader = (await exp.open!(() => {})).getReader();
      await reader.read();
      const connections = pool.totalCount;
      await reader.cancel();
      await new Promise((r) => setTimeout(r, 50));
      expect(batches).toBe(1);
      // The connection in the middle of its COPY is closed (which ends the COPY in the server), not reused.
      expect(pool.totalCount).toBe(connections - 1);
    }
    let pages = 0;
    const exp = usageExport(t.current.db, FLEET, q({ range: "30d", granularity: "report" }), {
      now,
      pageSize: 1,
      onPage: () => pages++,
    });
    const reader = (await openCsvStream(exp, { chunkRows: 1 })).getReader();
    await reader.read();
    await reader.cancel();
    const atCancel = pages;
    await new Promise((r) => setTimeout(r, 50));
    expect(pages).toBe(atCancel);
    // Nine rows need ten pages of one; the first chunk and one read ahead need three at most.
    expect(pages).toBeLessThanOrEqual(3);
  });

  it("exports the workspaces table with exact and negative sizes as plain numbers", async () => {
    const out = await csv(workspacesExport(t.current.db, FLEET, { sort: "name", dir: "asc" }, { now, pageSize: 2 }));
    const lines = out.split("\r\n");
    expect(lines[0]).toBe(
      "id,name,owner,template,total_bytes,change_7d_bytes,root_count,largest_agent,largest_agent_bytes,volume_size_bytes," +
        "volume_used_bytes,volume_avail_bytes,volume_use_percent,inodes_use_percent,volume_full,growth_bytes_per_day," +
        "forecast_full_at,last_report_at,silent,coder_status,dormant_at,deleting_at,last_used_at,deleted_at,coder_url",
    );
    expect(out).toContain(`\r\nws-u,café-日本,"'\r=1",,2024,-1024,1,claude-code,2024,,,,,,,`);
    expect(out).toContain(`,${at(now, 0, 10)},false,,,,,,\r\n`);
    expect(out).toContain(`\r\nws-h,"'=HYPERLINK(""http://evil"",""x"")",'+1,'-2+3,3700,,2,codex,2100,`);
    // In the table's order, the neutralising quote no part of the sort.
    const table = await listWorkspaces(t.current.db, FLEET, { sort: "name", dir: "asc", now });
    expect(lines.filter((l) => /^ws-[hqu],/.test(l)).map((l) => l.slice(0, 4))).toEqual(table.rows.map((r) => r.id));
  });

  // Last: it adds rows the tests above do not expect.
  it("writes the same file to the byte through PostgreSQL's COPY as through the writer", async () => {
    const db = t.current.db;
    // Names a spreadsheet would run, quotes, separators and line breaks inside, non-ASCII, an empty template, a
    // root with no path (daily: none in the latest table) and an empty one, sizes beyond 2^53 and int8's largest, times with microseconds.
    await db.execute(sql`insert into workspaces (id, name, owner, template, total_bytes, root_count, last_collected_at)
      values ('ws-z', ${"\uFF1Dfull,width\r\nnext"}, ${"\n=2"}, '', 0, 2, now())`);
    const time = `${dayAgo(now, 3)}T23:59:59.999999Z`;
    await db.execute(sql`insert into root_daily (workspace_id, root_key, day, agent, kind, bytes, apparent_bytes, files, collected_at)
      values ('ws-z', ${'@root"q"'}, ${dayAgo(now, 3)}::date, '-agent', 'tool', 9223372036854775807, 9007199254740993, 0, ${time}::timestamptz),
        ('ws-z', ${"é,😀"}, ${dayAgo(now, 3)}::date, ${"\tx"}, '', -1024, 0, 1, ${time}::timestamptz)`);
    const report = "00000000-0000-4000-8000-000000000001";
    await db.execute(sql`insert into reports (id, workspace_id, collected_at, reporter_version, scan_ms, total_bytes, root_count)
      values (${report}, 'ws-z', ${time}::timestamptz, 'test', 1, 0, 2)`);
    await db.execute(sql`insert into root_usage (report_id, collected_at, workspace_id, root_key, kind, agent, path, bytes, apparent_bytes, files, dirs)
      values (${report}, ${time}::timestamptz, 'ws-z', ${'@root"q"'}, 'tool', '-agent', '', 9223372036854775807, 1, 0, 0),
        (${report}, ${time}::timestamptz, 'ws-z', ${"é,😀"}, '', ${"\tx"}, ${'+sum\n"x",y'}, 0, 0, 1, 1)`);
    const filterSets: Record<string, unknown>[] = [
      {},
      { workspace: "ws-z,ws-h,nobody" },
      { owner: "\n=2" },
      { root: ["é,😀", "claude-code:data"] },
      { range: "custom", from: dayAgo(now, 3), to: dayAgo(now, 3) },
    ];
    for (const granularity of ["daily", "report"] as const) {
      for (const params of filterSets) {
        for (const batchRows of [1, 2, 1000]) {
          const exp = usageExport(db, FLEET, q({ range: "30d", granularity, ...params }), { now, batchRows });
          const written = await csv(exp);
          if (t.current.kind === "embedded") {
            expect(exp.open).toBeUndefined();
            continue;
          }
          expect(written.split("\r\n").length).toBeGreaterThan(1);
          expect(await copied(exp), `${granularity} ${JSON.stringify(params)} in batches of ${batchRows}`).toBe(
            written,
          );
        }
      }
    }
    const whole = await csv(usageExport(db, FLEET, q({ range: "30d" }), { now }));
    expect(whole).toContain(
      `${dayAgo(now, 3)}T23:59:59.999Z,${dayAgo(now, 3)},ws-z,"'\uFF1Dfull,width\r\nnext","'\n=2",,,,'-agent,tool,"'@root""q""",,9223372036854775807,9007199254740993,0\r\n`,
    );
  });
});
