import { sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { describeEachDatabase } from "@/tests/support/db";
import { keptRefresherFor } from "@/lib/ingest/kept-refresh";
import { ingestReport } from "@/lib/ingest/report";
import { homeUsage } from "@/tests/support/home";
import { enroll, GiB, makeReport, MiB, root } from "@/tests/support/reports";
import { fleetHomeSplit } from "./fleet-home";

const VOLUME = { totalBytes: 20 * GiB, usedBytes: 19 * GiB, freeBytes: 1 * GiB };
const ROOTS = [root({ key: "claude-code:data", agent: "claude-code", bytes: 5 * GiB })];

describeEachDatabase("the fleet's homes", (t) => {
  it("adds up agents, modules, caches, projects, the rest and the roots over the live workspaces that measure the home", async () => {
    const db = t.current.db;
    const send = async (id: string, extra = {}) => {
      await enroll(db, { id, owner: "o" });
      await ingestReport(db, id, makeReport({ id, owner: "o" }, "2026-11-20T10:00:00.000Z", ROOTS, VOLUME, extra));
    };
    await send("a", { home: homeUsage() });
    const small = homeUsage({
      bytes: 2 * GiB,
      roots: { agents: 1 * GiB, modules: 0, other: 0 },
      rest: 1 * GiB,
      kinds: { "package-cache": 512 * MiB },
    });
    await send("b", { home: small });
    await send("old-reporter");
    await send("gone", { home: homeUsage() });
    await db.execute(sql`update workspaces set deleted_at = now() where id = 'gone'`);
    await keptRefresherFor(db).drain();

    const f = await fleetHomeSplit(db);
    expect(f).toEqual({
      workspaces: 2,
      home: 20 * GiB,
      agents: 6 * GiB,
      modules: 512 * MiB,
      caches: 4.5 * GiB,
      projects: 3 * GiB,
      other: 20 * GiB - 6 * GiB - 512 * MiB - 4.5 * GiB - 3 * GiB,
      outside: 19 * GiB - 18 * GiB + (19 * GiB - 2 * GiB),
      // the roots of the two that measure the home (5 GiB each), not of the old reporter's nor the deleted one's
      roots: 10 * GiB,
    });
  });
});
