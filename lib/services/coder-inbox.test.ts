import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import * as outcomesRoute from "@/app/api/v1/inbox/outcomes/route";
import * as reportsRoute from "@/app/api/v1/reports/route";
import { config, resetConfigForTests } from "@/lib/config";
import { listNotices } from "@/lib/db/queries/notification-log";
import { addToOutbox } from "@/lib/db/queries/notifications";
import type { Notice } from "@/lib/notify/types";
import { rowsOf, type Db } from "@/lib/db/types";
import { enrollWorkspace, getEnrollmentKey } from "@/lib/enrollment/workspaces";
import { describeEachDatabase, serveRoutesFrom } from "@/tests/support/db";
import { at, enroll, GiB, makeReport, send, testNow, type WorkspaceSpec } from "@/tests/support/reports";
import { startWebhookReceiver, type WebhookReceiver } from "@/tests/support/webhook-receiver";
import { inboxForReport, INBOX_LEASE_MS, settleInboxOutcomes } from "./coder-inbox";
import { sendAllDue } from "./notification-sender";

// The owner's Coder Inbox: the workspace's reporter is handed its owner's notices in the answer to its report and
// says what became of them; the dashboard never holds the owner's token. A stopped workspace's notices wait while
// the other channels go on; an unclaimed prebuilt workspace gets none.

const SECRET = "webhook-secret";
const TOTAL = 100 * GiB;
const APP = "https://storage.example.com";
const RUNNING: WorkspaceSpec = { id: "ws-run", name: "running", owner: "alice" };
const STOPPED: WorkspaceSpec = { id: "ws-stop", name: "stopped", owner: "bob" };
const PREBUILT: WorkspaceSpec = { id: "ws-pre", name: "prebuilt", owner: "prebuilds" };
const OLD: WorkspaceSpec = { id: "ws-old", name: "old-reporter", owner: "olga" };

const full = { totalBytes: TOTAL, usedBytes: TOTAL * 0.97, freeBytes: TOTAL * 0.03 };
const claude = { key: "claude:sessions", agent: "claude-code", path: ".claude/projects", bytes: 80 * GiB };

type Row = { id: string; workspace_id: string; channel: string; status: string; last_error: string | null };
const outbox = async (db: Db, channel?: string) =>
  rowsOf<Row>(
    await db.execute(
      sql`select id, workspace_id, channel, status, last_error from notification_outbox
          where ${channel ?? null}::text is null or channel = ${channel ?? null} order by workspace_id, channel`,
    ),
  );

/** Queues the workspace's Inbox notice once more, as a new state of its volume would. */
async function queueAgain(db: Db, workspaceId: string): Promise<void> {
  const [{ notice }] = rowsOf<{ notice: Notice }>(
    await db.execute(sql`select notice from notification_outbox where workspace_id = ${workspaceId} limit 1`),
  );
  const at = new Date();
  await addToOutbox(db, [{ channel: "coder-inbox", notice, nextAttemptAt: at }], at);
}

describeEachDatabase("the owner's Coder Inbox", (t) => {
  let receiver: WebhookReceiver;
  const now = testNow();
  const reported = new Date(at(now, 0, 9));
  /** Past the decisions (made at the wall clock's time): the rows are due then. */
  let clock: Date;

  beforeAll(async () => {
    receiver = await startWebhookReceiver(SECRET);
    vi.stubEnv("STORAGE_NOTIFY_WEBHOOK_URL", receiver.url);
    vi.stubEnv("STORAGE_NOTIFY_WEBHOOK_SECRET", SECRET);
    vi.stubEnv("STORAGE_NOTIFY_WEBHOOK_ALLOW_PRIVATE", "1");
    vi.stubEnv("BETTER_AUTH_URL", APP);
    resetConfigForTests();
    const db = t.current.db;
    for (const ws of [RUNNING, STOPPED, PREBUILT]) {
      await enroll(db, ws);
      // Each reporter said, with an earlier report, that it can deliver
      await inboxForReport(db, ws.id, true, reported, APP);
    }
    await db.execute(sql`update workspaces set coder_transition = 'stop', coder_status = 'stopped'
      where id = ${STOPPED.id}`);
    for (const ws of [RUNNING, STOPPED, PREBUILT]) await send(db, ws, at(now, 0, 9), [claude], full);
    clock = new Date(Date.now() + 60_000);
  });
  afterAll(async () => {
    vi.unstubAllEnvs();
    resetConfigForTests();
    await receiver.close();
  });

  it("queues a Coder Inbox notice beside the webhook's for workspaces that can deliver, none for a prebuild", async () => {
    const rows = await outbox(t.current.db);
    expect(rows.map((r) => [r.workspace_id, r.channel])).toEqual([
      ["ws-pre", "webhook"],
      ["ws-run", "coder-inbox"],
      ["ws-run", "webhook"],
      ["ws-stop", "coder-inbox"],
      ["ws-stop", "webhook"],
    ]);
  });

  it("the dashboard's sender sends the others and leaves the Inbox's to the reporters", async () => {
    const db = t.current.db;
    await sendAllDue({ db, id: "s1", notify: config().notify, appUrl: APP });
    expect(receiver.received.map((r) => (r.body as { workspace: { id: string } }).workspace.id).sort()).toEqual([
      "ws-pre",
      "ws-run",
      "ws-stop",
    ]);
    expect((await outbox(db, "coder-inbox")).map((r) => r.status)).toEqual(["pending", "pending"]);
  });

  it("the Notifications page says a stopped workspace's Inbox notice waits for it to start", async () => {
    const { notices } = await listNotices(t.current.db, { channel: "coder-inbox" }, new Date(0), { limit: 10 });
    expect(notices.map((n) => [n.workspaceId, n.waitingForStart])).toEqual([
      ["ws-stop", true],
      ["ws-run", false],
    ]);
  });

  it("hands a report's answer the notice, named and worded, once per lease; delivered settles it", async () => {
    const db = t.current.db;
    const handed = await inboxForReport(db, RUNNING.id, true, clock, APP);
    expect(handed).toHaveLength(1);
    expect(handed[0].title).toBe("Workspace running is full: 97 % used");
    expect(handed[0].text).toContain("claude-code: .claude/projects");
    expect(handed[0].text).toContain("What to do:");
    expect(handed[0].link).toBe(`${APP}/workspaces/ws-run`);
    // held by that reporter: a second report within the lease gets nothing
    expect(await inboxForReport(db, RUNNING.id, true, new Date(clock.getTime() + 60_000), APP)).toEqual([]);
    // another workspace cannot settle it
    expect(await settleInboxOutcomes(db, STOPPED.id, [{ id: handed[0].id, outcome: "delivered" }], clock)).toBe(0);
    expect(await settleInboxOutcomes(db, RUNNING.id, [{ id: handed[0].id, outcome: "delivered" }], clock)).toBe(1);
    expect((await outbox(db, "coder-inbox")).find((r) => r.id === handed[0].id)?.status).toBe("sent");
  });

  it("Coder unreachable is retried on the outbox's backoff, then failed 24 hours after it was queued", async () => {
    const db = t.current.db;
    await db.execute(sql`update workspaces set coder_transition = 'start', coder_status = 'running'
      where id = ${STOPPED.id}`);
    const started = new Date(clock.getTime() + 3_600_000);
    const [n] = await inboxForReport(db, STOPPED.id, true, started, APP);
    await settleInboxOutcomes(db, STOPPED.id, [{ id: n.id, outcome: "unreachable", message: "ECONNREFUSED" }], started);
    // not due before the backoff
    expect(await inboxForReport(db, STOPPED.id, true, new Date(started.getTime() + 30_000), APP)).toEqual([]);
    const later = new Date(started.getTime() + 2 * 60_000);
    expect((await inboxForReport(db, STOPPED.id, true, later, APP)).map((x) => x.id)).toEqual([n.id]);
    const [{ created_at }] = rowsOf<{ created_at: string | Date }>(
      await db.execute(sql`select created_at from notification_outbox where id = ${n.id}`),
    );
    const dayLater = new Date(new Date(created_at).getTime() + 25 * 3_600_000);
    await settleInboxOutcomes(
      db,
      STOPPED.id,
      [{ id: n.id, outcome: "unreachable", message: "ECONNREFUSED" }],
      dayLater,
    );
    const row = (await outbox(db, "coder-inbox")).find((r) => r.id === n.id)!;
    expect(row).toMatchObject({ status: "failed", last_error: "Coder could not be reached: ECONNREFUSED" });
  });

  it("a refusal is failed at once with Coder's status and message", async () => {
    const db = t.current.db;
    await queueAgain(db, RUNNING.id);
    const when = new Date(Date.now() + INBOX_LEASE_MS * 2);
    const [n] = await inboxForReport(db, RUNNING.id, true, when, APP);
    const refused = { id: n.id, outcome: "refused" as const, status: 401, message: "API key is invalid." };
    expect(await settleInboxOutcomes(db, RUNNING.id, [refused], when)).toBe(1);
    expect((await outbox(db, "coder-inbox")).find((r) => r.id === n.id)).toMatchObject({
      status: "failed",
      last_error: "Coder refused it: HTTP 401: API key is invalid.",
    });
  });

  describe("reporters of either release", () => {
    beforeAll(() => serveRoutesFrom(t.current));
    const req = (path: string, token: string, payload: unknown, headers: Record<string, string> = {}) =>
      new Request(`${APP}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${token}`, ...headers },
        body: JSON.stringify(payload),
      });
    const ctx = () => ({ params: Promise.resolve({}) });

    it("an older reporter (no header) is stored and answered as before, with an empty inbox it ignores", async () => {
      // Yesterday's reports: the route checks them against the real clock, and today's 09:00 is in the future
      // before 09:00 UTC (the run at 00:12 UTC was refused, 422).
      const db = t.current.db;
      const { key } = await getEnrollmentKey(db);
      const { token } = await enrollWorkspace(db, { id: OLD.id, name: OLD.name!, owner: OLD.owner }, key, null);
      const res = await reportsRoute.POST(
        req("/api/v1/reports", token, makeReport(OLD, at(now, 1, 9), [claude])),
        ctx(),
      );
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ status: "stored", workspaceId: OLD.id, inbox: [] });
      expect(rowsOf(await db.execute(sql`select coder_inbox from workspaces where id = ${OLD.id}`))).toEqual([
        { coder_inbox: false },
      ]);
      // A new reporter says it can deliver; then its outcomes endpoint takes what it says
      const ready = await reportsRoute.POST(
        req("/api/v1/reports", token, makeReport(OLD, at(now, 1, 10), [claude]), { "x-coder-inbox": "ready" }),
        ctx(),
      );
      expect(await ready.json()).toMatchObject({ status: "stored", inbox: [] });
      const told = await outcomesRoute.POST(
        req("/api/v1/inbox/outcomes", token, { outcomes: [{ id: crypto.randomUUID(), outcome: "delivered" }] }),
        ctx(),
      );
      expect(await told.json()).toEqual({ applied: 0 });
      const bad = await outcomesRoute.POST(req("/api/v1/inbox/outcomes", token, { outcomes: [{ id: "x" }] }), ctx());
      expect(bad.status).toBe(422);
    });
  });

  it("a run that can no longer deliver gives up the notices waiting for it", async () => {
    const db = t.current.db;
    await queueAgain(db, STOPPED.id);
    expect((await outbox(db, "coder-inbox")).filter((r) => r.status === "pending").length).toBeGreaterThan(0);
    await inboxForReport(db, STOPPED.id, false, new Date(Date.now() + 10 * INBOX_LEASE_MS), APP);
    await inboxForReport(db, RUNNING.id, false, new Date(Date.now() + 10 * INBOX_LEASE_MS), APP);
    const pending = (await outbox(db, "coder-inbox")).filter((r) => r.status === "pending");
    expect(pending).toEqual([]);
  });
});
