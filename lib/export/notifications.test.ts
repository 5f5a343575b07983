import { parse } from "csv-parse/sync";
import { beforeAll, expect, it } from "vitest";
import { GET as noticesCsv } from "@/app/api/v1/export/notifications.csv/route";
import { GET as workspaceNoticesCsv } from "@/app/api/v1/export/workspaces/[id]/notices.csv/route";
import { notificationOutbox } from "@/lib/db/schema";
import type { Notice } from "@/lib/notify/types";
import { BASE, ctx, makePrincipals } from "@/tests/support/auth";
import { describeEachDatabase, serveRoutesFrom } from "@/tests/support/db";
import { enroll } from "@/tests/support/reports";

// The notices' CSV: exactly the page's filtered list, read back with an independent parser; hostile text stays text.

const HOSTILE = '=HYPERLINK("http://evil.example")';
const notice = (id: string, name: string): Notice => ({
  kind: "full",
  stateKey: "full",
  level: 1,
  workspace: { id, name, owner: "alice" },
  figure: "97 % used",
  causes: [],
  action: { type: "grow-disk" },
  decidedAt: new Date().toISOString(),
});

describeEachDatabase("the notices' CSV", (t) => {
  let auth: Record<string, string> = {};
  beforeAll(async () => {
    serveRoutesFrom(t.current);
    auth = { authorization: `Bearer ${(await makePrincipals(t.current, "ncsv")).adminToken}` };
    await enroll(t.current.db, { id: "ws-csv", name: "csv", owner: "alice" });
    const now = Date.now();
    await t.current.db.insert(notificationOutbox).values(
      ["sent", "failed", "pending"].map((status, i) => ({
        channel: i === 1 ? "webhook" : "email",
        kind: "full",
        workspaceId: "ws-csv",
        owner: "alice",
        notice: notice("ws-csv", "csv"),
        status,
        createdAt: new Date(now - (i + 1) * 60_000),
        nextAttemptAt: new Date(now),
        lastError: i === 1 ? HOSTILE : null,
      })),
    );
  });

  const read = async (res: Response) => {
    expect(res.status, await res.clone().text()).toBe(200);
    return parse(await res.text(), { columns: true }) as Record<string, string>[];
  };

  it("holds exactly the filtered list, its error text neutralised", async () => {
    const all = await read(
      await noticesCsv(new Request(`${BASE}/api/v1/export/notifications.csv`, { headers: auth }), ctx()),
    );
    expect(all.map((r) => r.status)).toEqual(["sent", "failed", "pending"]);
    const failed = await read(
      await noticesCsv(
        new Request(`${BASE}/api/v1/export/notifications.csv?status=failed&channel=webhook&q=CSV`, { headers: auth }),
        ctx(),
      ),
    );
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ workspace_id: "ws-csv", channel: "webhook", last_error: `'${HOSTILE}` });
    const bad = await noticesCsv(
      new Request(`${BASE}/api/v1/export/notifications.csv?status=lost`, { headers: auth }),
      ctx(),
    );
    expect(bad.status).toBe(422);
  });

  it("gives a workspace's page its own notices", async () => {
    const rows = await read(
      await workspaceNoticesCsv(
        new Request(`${BASE}/api/v1/export/workspaces/ws-csv/notices.csv`, { headers: auth }),
        ctx({ id: "ws-csv" }),
      ),
    );
    expect(rows.map((r) => [r.kind, r.channel, r.status])).toEqual([
      ["full", "email", "sent"],
      ["full", "webhook", "failed"],
      ["full", "email", "pending"],
    ]);
  });
});
