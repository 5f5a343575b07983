// The workspaces CSV written by PostgreSQL's COPY (lib/db/queries/workspaces-copy.ts) against the file writer
// over rows read by toRow (the embedded database's way, and PostgreSQL's before the COPY): the same bytes in
// every order, under filters and a member's scope, with and without Coder's links, over hostile values.
import { sql } from "drizzle-orm";
import { beforeAll, expect, it } from "vitest";
import { openCsvStream } from "@/lib/csv/stream";
import { FLEET, ownedBy } from "@/lib/db/scope";
import { WORKSPACE_SORT_COLUMNS } from "@/lib/validations/workspaces";
import { describeEachDatabase } from "@/tests/support/db";
import { dayAgo, testNow } from "@/tests/support/reports";
import { workspacesExport } from "./lists";

const GiB = 2 ** 30;
// Each: id, name, owner, template, total bytes, volume (size, free, used; inodes used, free), growth per day,
// forecast, last report, Coder's status. Names a spreadsheet would run, quotes, separators and line breaks inside,
// non-ASCII (full-width, accents, an emoji, a name encodeURIComponent must encode), an empty and a null template,
// sizes up to 2^53 − 1, a volume out of space, one out of inodes, one from a reporter before 0.2 (no Used), none,
// growth with halves either side of zero, and times with microseconds.
type Seed = {
  id: string;
  name: string;
  owner: string;
  template: string | null;
  total: number;
  volume: [number, number, number | null, number | null, number | null] | null;
  growth: number | null;
  forecast: string | null;
  last: string | null;
  status: string | null;
};
const SEEDS: Seed[] = [
  {
    id: "ws-h",
    name: '=HYPERLINK("http://evil","x")',
    owner: "+1",
    template: "-2+3",
    total: 2 ** 53 - 1,
    volume: [10 * GiB, 0.25 * GiB, 9.5 * GiB, 900, 100],
    growth: 2.5,
    forecast: "2026-12-01T10:00:00.123999Z",
    last: "2026-11-20T23:59:59.999999Z",
    status: "running",
  },
  {
    id: "ws-q",
    name: 'say "hi", then\nleave',
    owner: "@SUM(A1)",
    template: "\t=1",
    total: 0,
    volume: [10 * GiB, 5 * GiB, 4 * GiB, 999, 1],
    growth: -2.5,
    forecast: null,
    last: null,
    status: "stopped",
  },
  {
    id: "ws-u",
    name: "café-日本 😀 a/b?c#d&e%f",
    owner: "\r=1",
    template: "",
    total: 1024,
    volume: [20 * GiB, 2 * GiB, null, null, null],
    growth: -0.4,
    forecast: "2026-12-24T00:00:00Z",
    last: "2026-11-28T12:00:00.5Z",
    status: null,
  },
  {
    id: "ws-w",
    name: "\uFF1Dfull,width\r\nnext",
    owner: "alice",
    template: null,
    total: 9_007_199_254,
    volume: null,
    growth: 1_000_000.5,
    forecast: null,
    last: "2026-11-29T08:00:00Z",
    status: "deleted",
  },
  {
    id: "ws-p",
    name: "plain-name_1.2~(x)*!'",
    owner: "Alice",
    template: "ai-dev",
    total: 5 * GiB,
    volume: [GiB, 0, GiB, 0, 0],
    growth: null,
    forecast: null,
    last: "2026-11-29T09:00:00Z",
    status: "running",
  },
];

describeEachDatabase("workspaces CSV through COPY", (t) => {
  const now = testNow();
  const written = async (exp: ReturnType<typeof workspacesExport>) => new Response(await openCsvStream(exp)).text();

  beforeAll(async () => {
    const db = t.current.db;
    for (const s of SEEDS) {
      const [size, free, used, iused, ifree] = s.volume ?? [null, null, null, null, null];
      await db.execute(sql`insert into workspaces (id, name, owner, template, total_bytes, root_count,
          largest_agent, largest_agent_bytes, volume_total_bytes, volume_free_bytes, volume_used_bytes,
          volume_inodes_total, volume_inodes_used, volume_inodes_free, growth_bytes_per_day, forecast_full_at,
          last_collected_at, coder_status, coder_dormant_at, deleted_at)
        values (${s.id}, ${s.name}, ${s.owner}, ${s.template}, ${s.total}, 3, ${s.total ? "-agent" : null},
          ${s.total || null}, ${size}, ${free}, ${used}, ${iused === null ? null : iused + ifree!}, ${iused},
          ${ifree}, ${s.growth}, ${s.forecast}::timestamptz, ${s.last}::timestamptz, ${s.status},
          ${s.status === "stopped" ? "2026-11-01T00:00:00.000001Z" : null}::timestamptz,
          ${s.status === "deleted" ? "2026-11-29T10:00:00Z" : null}::timestamptz)`);
    }
    // The 7-day change: a total on the day it is measured from, one from before it, none.
    await db.execute(sql`insert into workspace_daily (workspace_id, day, bytes, collected_at) values
      ('ws-h', ${dayAgo(now, 7)}::date, 2048, now()), ('ws-u', ${dayAgo(now, 9)}::date, 3072, now()),
      ('ws-p', ${dayAgo(now, 7)}::date, 4503599627370496, now())`);
  });

  it("writes the writer's file to the byte in every order, under filters and a member's scope", async () => {
    const db = t.current.db;
    const cases = [
      ...WORKSPACE_SORT_COLUMNS.flatMap((sort) => (["asc", "desc"] as const).map((dir) => ({ sort, dir }))),
      { q: "é" },
      { owner: "\r=1" },
      { template: "" },
      { status: "deleted" as const },
      { reporting: "no" as const },
    ];
    for (const coderUrl of [null, "https://coder.example.com/sub"]) {
      for (const q of cases) {
        for (const scope of [FLEET, ownedBy("alice")]) {
          const exp = workspacesExport(db, scope, q, { now, coderUrl });
          const file = await written(exp);
          if (t.current.kind === "embedded") {
            expect(exp.open).toBeUndefined();
            continue;
          }
          const copied = await new Response(await exp.open!(() => {})).text();
          expect(copied, `${JSON.stringify(q)} ${scope.kind} ${coderUrl}`).toBe(file);
        }
      }
    }
  });

  it("writes what the writer writes of these rows (the cells COPY must match)", async () => {
    const file = await written(
      workspacesExport(t.current.db, FLEET, { sort: "name", dir: "asc" }, { now, coderUrl: "https://c.example" }),
    );
    const line = (id: string) => file.split("\r\n").find((l) => l.startsWith(`${id},`));
    expect(line("ws-h")).toBe(
      `ws-h,"'=HYPERLINK(""http://evil"",""x"")",'+1,'-2+3,9007199254740991,9007199254738943,3,'-agent,` +
        `9007199254740991,10737418240,10200547328,268435456,98,90,true,3,2026-12-01T10:00:00.123Z,` +
        `2026-11-20T23:59:59.999Z,true,running,,,,,https://c.example/@%2B1/%3DHYPERLINK(%22http%3A%2F%2Fevil%22%2C%22x%22)`,
    );
    expect(file).toContain(
      `\r\nws-u,café-日本 😀 a/b?c#d&e%f,"'\r=1",,1024,-2048,3,'-agent,1024,21474836480,19327352832,2147483648,90,,` +
        `false,0,2026-12-24T00:00:00.000Z,2026-11-28T12:00:00.500Z,`,
    );
    expect(line("ws-u")).toContain(
      `,https://c.example/@%0D%3D1/caf%C3%A9-%E6%97%A5%E6%9C%AC%20%F0%9F%98%80%20a%2Fb%3Fc%23d%26e%25f`,
    );
    // Deleted workspaces are listed only when asked for.
    expect(line("ws-w")).toBeUndefined();
  });
});
