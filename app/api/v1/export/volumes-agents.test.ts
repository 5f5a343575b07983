// The CSVs of the volumes-at-risk page and the agents index: each file holds every row of the page's table, in
// its order, with the figures the page shows (exact where it rounds), and its totals are the page's.
import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, expect, it } from "vitest";
import { makePrincipals } from "@/tests/support/auth";
import { everyAgent } from "@/lib/db/queries/fleet-lists";
import type { AtRiskPage } from "@/lib/db/queries/volumes-at-risk";
import { describeEachDatabase, serveRoutesFrom } from "@/tests/support/db";
import { at, enroll, GiB, MiB, send, testNow } from "@/tests/support/reports";
import { GET as overview } from "../fleet/overview/route";
import { GET as atRisk } from "../volumes/at-risk/route";
import { GET as agents } from "./agents.csv/route";
import { GET as volumes } from "./volumes.csv/route";

type Handler = (request: Request, ctx: { params: Promise<object> }) => Promise<Response>;
const globalDb = globalThis as unknown as { __storageDb?: unknown };
const ctx = { params: Promise.resolve({}) };
let viewer: Record<string, string> = {};

const call = (handler: Handler, path: string, headers = viewer) =>
  handler(new Request(`http://localhost${path}`, { headers }), ctx);
const csv = async (res: Response) => {
  expect(res.status).toBe(200);
  return parse(await res.text(), { columns: true }) as Record<string, string>[];
};

const FULL = 7;
/** 10 GiB volumes: the i-th has i × 10 MiB free (full); one more at 50 % that grew 4 GiB in a week (filling). */
const volumeWith = (free: number) => ({ totalBytes: 10 * GiB, freeBytes: free, usedBytes: 10 * GiB - free });

describeEachDatabase("the CSVs of the volumes at risk and the agents index", (t) => {
  const now = testNow();
  beforeAll(async () => {
    const db = t.current.db;
    for (let i = 1; i <= FULL; i++) {
      const ws = { id: `va-${i}`, owner: "olga" };
      await enroll(db, ws);
      await send(db, ws, at(now, 0), [{ key: "codex:data", agent: "codex", bytes: 3 * GiB }], volumeWith(i * 10 * MiB));
    }
    const filling = { id: "va-filling", owner: "piet" };
    await enroll(db, filling);
    for (let d = 7; d >= 0; d--)
      await send(
        db,
        filling,
        at(now, d),
        [{ key: "claude-code:home", agent: "claude-code", bytes: (8 - d) * 512 * MiB }],
        volumeWith((4 + d * 0.5) * GiB),
      );
    serveRoutesFrom(t.current);
    viewer = { authorization: `Bearer ${(await makePrincipals(t.current, "va")).viewerToken}` };
  });
  afterAll(() => {
    globalDb.__storageDb = undefined;
  });

  it("hold every volume the page lists within its days, in its order, with its figures and count", async () => {
    for (const days of [7, 90]) {
      const pages: AtRiskPage[] = [];
      for (let after = ""; ;) {
        const res = await call(atRisk, `/api/v1/volumes/at-risk?days=${days}&limit=3${after && `&after=${after}`}`);
        pages.push((await res.json()) as AtRiskPage);
        if (!pages.at(-1)!.next) break;
        after = encodeURIComponent(pages.at(-1)!.next!);
      }
      const shown = pages.flatMap((p) => p.volumes);
      const rows = await csv(await call(volumes, `/api/v1/export/volumes.csv?days=${days}`));
      // the page's count line: every volume at risk, the full ones, and what each ran out of
      expect(rows.length).toBe(pages[0].total);
      expect(rows.filter((r) => r.full_by !== "").length).toBe(pages[0].full);
      expect(rows.filter((r) => r.full_by === "space").length).toBe(pages[0].outOfSpace);
      expect(rows.map((r) => [r.workspace_id, r.full_by, Number(r.volume_avail_bytes), r.volume_use_percent])).toEqual(
        shown.map((v) => [v.workspace.id, v.fullBy ?? "", v.volume.availBytes, String(v.volume.usePercent)]),
      );
      expect(rows.map((r) => JSON.parse(r.largest_roots) as unknown)).toEqual(shown.map((v) => v.why.largestRoots));
      expect(rows.map((r) => r.growth_bytes_per_day)).toEqual(
        shown.map((v) => (v.growthBytesPerDay === null ? "" : String(Math.round(v.growthBytesPerDay)))),
      );
    }
    // 90 days reach the filling volume, whose forecast the page says in days
    const rows = await csv(await call(volumes, "/api/v1/export/volumes.csv?days=90"));
    const filling = rows.find((r) => r.workspace_id === "va-filling")!;
    expect(filling).toMatchObject({ full_by: "", full_in: expect.stringMatching(/^\d+(\.\d)? days?$/) });
    expect(JSON.parse(filling.grew_7d_roots)).toEqual([
      { rootKey: "claude-code:home", agent: "claude-code", growthBytes: 7 * 512 * MiB },
    ]);
    // days are the page's own: a count of days it could not show is refused before any row
    expect((await call(volumes, "/api/v1/export/volumes.csv?days=0")).status).toBe(422);
  });

  it("hold every agent of the index, largest first, adding up to the overview's Total storage", async () => {
    const index = await everyAgent(t.current.db);
    const rows = await csv(await call(agents, "/api/v1/export/agents.csv"));
    expect(rows.map((r) => [r.agent, Number(r.bytes), Number(r.workspaces), Number(r.roots)])).toEqual(
      index.map((a) => [a.agent, a.bytes, a.workspaces, a.roots]),
    );
    const o = (await (await call(overview, "/api/v1/fleet/overview")).json()) as { total: { bytes: number } };
    expect(rows.reduce((s, r) => s + Number(r.bytes), 0)).toBe(o.total.bytes);
    expect(rows.reduce((s, r) => s + Number(r.share_percent), 0)).toBeCloseTo(100, 1);
    expect((await call(agents, "/api/v1/export/agents.csv", {})).status).toBe(401);
  });
});
