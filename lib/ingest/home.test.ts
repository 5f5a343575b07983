import { sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { describeEachDatabase } from "@/tests/support/db";
import { rowsOf } from "@/lib/db/types";
import { keptRefresherFor } from "@/lib/ingest/kept-refresh";
import { ingestReport } from "@/lib/ingest/report";
import { report as reportSchema } from "@/lib/report-format/schema";
import { homeUsage } from "@/tests/support/home";
import { enroll, GiB, makeReport, root } from "@/tests/support/reports";

const WS = { id: "ws-home", owner: "hana" };
const VOLUME = { totalBytes: 20 * GiB, usedBytes: 19 * GiB, freeBytes: 1 * GiB };
const ROOTS = [root({ key: "claude-code:data", agent: "claude-code", bytes: 5 * GiB })];

describeEachDatabase("ingest stores the whole home", (t) => {
  const read = async (q: ReturnType<typeof sql>) => rowsOf<Record<string, unknown>>(await t.current.db.execute(q));
  const json = (v: unknown) => (typeof v === "string" ? JSON.parse(v) : v);

  it("keeps the report's home in its history and on the workspace, and none for an older reporter", async () => {
    await enroll(t.current.db, WS);
    const home = homeUsage();
    const first = reportSchema.parse(makeReport(WS, "2026-11-20T10:00:00.000Z", ROOTS, VOLUME, { home }));
    await ingestReport(t.current.db, WS.id, first, new Date("2026-11-20T10:01:00.000Z"));
    const [r] = await read(sql`select home from reports where id = ${first.id}::uuid`);
    const [w] = await read(sql`select home from workspaces where id = ${WS.id}`);
    expect([json(r.home), json(w.home)]).toEqual([home, home]);

    const older = reportSchema.parse(makeReport(WS, "2026-11-20T11:00:00.000Z", ROOTS, VOLUME));
    expect(older.home).toBeUndefined();
    await ingestReport(t.current.db, WS.id, older, new Date("2026-11-20T11:01:00.000Z"));
    const [r2] = await read(sql`select home from reports where id = ${older.id}::uuid`);
    const [w2] = await read(sql`select home from workspaces where id = ${WS.id}`);
    expect([r2.home, w2.home]).toEqual([null, null]);
    await keptRefresherFor(t.current.db).drain();
  });
});

it("refuses a home whose roots and rest do not add up to its total, and paths that leave the home", () => {
  const base = makeReport(WS, "2026-11-20T10:00:00.000Z", ROOTS, VOLUME);
  expect(reportSchema.safeParse({ ...base, home: homeUsage({ rest: 1 }) }).success).toBe(false);
  const escaping = homeUsage({ largest: [{ path: "../etc", bytes: GiB }] });
  expect(reportSchema.safeParse({ ...base, home: escaping }).success).toBe(false);
  expect(reportSchema.safeParse({ ...base, home: homeUsage() }).success).toBe(true);
});
