import { sql } from "drizzle-orm";
import { beforeAll, expect, it } from "vitest";
import { describeEachDatabase } from "@/tests/support/db";
import { rowsOf } from "@/lib/db/types";
import type { Persistence } from "@/lib/report-format/persistence";
import { parseReport } from "@/lib/ingest/parse-report";
import { enroll, makeReport, send } from "@/tests/support/reports";

// The report's persistence facts land in history and on the workspace from its newest report; a report without
// them (an older reporter) stores null, and a late report leaves the workspace's as they are.

const WS = { id: "ws-persist", owner: "pia", template: "k8s" };
const P: Persistence = {
  home: {
    mount: { mountPoint: "/home/coder", fsType: "ext4", source: "/dev/rbd0", root: "/", homeVolume: true },
    verdict: "persistent",
    reason: "a volume mounted at the home",
  },
  roots: {
    "codex:data": {
      mount: { mountPoint: "/tmp", fsType: "tmpfs", source: "tmpfs", root: "/", homeVolume: false },
      verdict: "not-persistent",
      reason: "tmpfs is memory, lost at every stop",
      link: { path: ".codex", target: "/tmp/codex" },
    },
  },
  agentapi: [
    {
      root: "coder/codex",
      persistence: "on",
      stateFile: ".coder-modules/coder/codex/agentapi-state.json",
      stateMtime: null,
    },
  ],
};
const roots = [{ key: "codex:data", agent: "codex", bytes: 4096 }];

describeEachDatabase("ingest stores where roots live", (t) => {
  const read = async (q: ReturnType<typeof sql>) => rowsOf<Record<string, unknown>>(await t.current.db.execute(q));
  const json = (v: unknown) => (typeof v === "string" ? (JSON.parse(v) as unknown) : v);
  let ids: string[] = [];

  beforeAll(async () => {
    await enroll(t.current.db, WS);
    const a = await send(t.current.db, WS, "2026-11-20T10:00:00.000Z", roots, undefined, { persistence: P });
    const b = await send(t.current.db, WS, "2026-11-20T11:00:00.000Z", roots);
    const late = await send(t.current.db, WS, "2026-11-20T09:00:00.000Z", roots, undefined, { persistence: P });
    ids = [a, b, late].map((r) => r.reportId);
  });

  it("keeps each report's facts in history, null from a reporter without them", async () => {
    const rows = await read(
      sql`select id::text, persistence from reports where workspace_id = ${WS.id} order by collected_at`,
    );
    expect(rows.map((r) => [r.id, json(r.persistence)])).toEqual([
      [ids[2], P],
      [ids[0], P],
      [ids[1], null],
    ]);
  });

  it("keeps the newest report's facts on the workspace", async () => {
    const [w] = await read(sql`select persistence from workspaces where id = ${WS.id}`);
    expect(w.persistence).toBeNull();
    await send(t.current.db, WS, "2026-11-20T12:00:00.000Z", roots, undefined, { persistence: P });
    const [after] = await read(sql`select persistence from workspaces where id = ${WS.id}`);
    expect(json(after.persistence)).toEqual(P);
  });

  it("refuses a verdict the format does not know, and a mount without its type", () => {
    const bad = { ...P, home: { ...P.home, verdict: "maybe" } };
    expect(() =>
      parseReport(makeReport(WS, "2026-11-20T10:00:00.000Z", roots, undefined, { persistence: bad as never })),
    ).toThrow();
    const noType = { ...P, home: { ...P.home, mount: { ...P.home.mount, fsType: "" } } };
    expect(() =>
      parseReport(makeReport(WS, "2026-11-20T10:00:00.000Z", roots, undefined, { persistence: noType as never })),
    ).toThrow();
  });
});
