import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { GET, POST } from "@/app/api/v1/notifications/unsubscribe/route";
import { config, resetConfigForTests } from "@/lib/config";
import { saveOwnerEmails } from "@/lib/db/queries/notifications";
import { auditLog } from "@/lib/db/schema";
import { rowsOf, type Db } from "@/lib/db/types";
import { nextDigestAt } from "@/lib/notify/schedule";
import { unsubscribeSignature } from "@/lib/notify/unsubscribe";
import { describeEachDatabase, serveRoutesFrom } from "@/tests/support/db";
import { at, enroll, GiB, MiB, send, testNow, type RootSpec, type WorkspaceSpec } from "@/tests/support/reports";
import { startMailServer, type MailServer } from "@/tests/support/smtp-server";
import { noticePreferences } from "./notice-preferences";
import { sendAllDue, type Sender } from "./notification-sender";
import { notifySettingsInForce } from "./notify-settings";

// The one-click unsubscribe of RFC 8058 through a real SMTP server on loopback: every email carries the owner's
// signed link in List-Unsubscribe with List-Unsubscribe-Post; a GET of it changes nothing, a POST turns the optional
// kinds off (audited), a bad signature answers 403 and changes nothing; the sender then skips the optional kinds
// (recorded as skipped) and a full volume's notice still goes.

const SECRET = "a-test-secret-that-signs-the-links";
const APP = "https://storage.example.com";
const TOTAL = 100 * GiB;
const OLGA: WorkspaceSpec = { id: "ws-olga", name: "olga-dev", owner: "olga" };
const volumeAt = (pct: number) => ({
  totalBytes: TOTAL,
  usedBytes: (TOTAL * pct) / 100,
  freeBytes: (TOTAL * (100 - pct)) / 100,
});
const root = (logBytes: number): RootSpec => ({
  key: "claude:data",
  agent: "claude-code",
  path: ".claude",
  bytes: 10 * GiB,
  largest: [{ path: "debug/run.log", bytes: logBytes, mtime: "2026-01-01T00:00:00.000Z", type: "file" }],
});
const ctx = { params: Promise.resolve({}) };
const link = (sig: string) => `${APP}/api/v1/notifications/unsubscribe?owner=olga&sig=${encodeURIComponent(sig)}`;
const oneClick = (url: string) =>
  POST(
    new Request(url, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "List-Unsubscribe=One-Click",
    }),
    ctx,
  );
const statuses = async (db: Db) =>
  rowsOf<{ kind: string; status: string }>(
    await db.execute(sql`select kind, status from notification_outbox order by created_at, kind`),
  );
const emailSwitches = async (db: Db) => (await noticePreferences(db, "olga")).channels.email;

describeEachDatabase("one-click unsubscribe", (t) => {
  let mail: MailServer;
  const now = testNow();

  beforeAll(async () => {
    mail = await startMailServer();
    vi.stubEnv("STORAGE_SMTP_URL", mail.url);
    vi.stubEnv("STORAGE_NOTIFY_FROM", "storage@example.com");
    vi.stubEnv("BETTER_AUTH_URL", APP);
    vi.stubEnv("BETTER_AUTH_SECRET", SECRET);
    resetConfigForTests();
    serveRoutesFrom(t.current);
    await enroll(t.current.db, OLGA);
    await saveOwnerEmails(t.current.db, [{ owner: "olga", email: "olga@example.com" }], now);
  });
  afterAll(async () => {
    vi.unstubAllEnvs();
    resetConfigForTests();
    await mail.close();
  });

  const sender = (clock: Date): Sender => ({
    db: t.current.db,
    id: "s1",
    notify: config().notify,
    appUrl: APP,
    clock: () => clock,
  });

  it("puts the owner's signed link in List-Unsubscribe, with List-Unsubscribe-Post", async () => {
    const db = t.current.db;
    for (const [day, pct] of [
      [3, 60],
      [2, 70],
      [1, 80],
    ])
      await send(db, OLGA, at(now, day, 10), [root(500 * MiB)], volumeAt(pct));
    await sendAllDue(sender(nextDigestAt(new Date(), (await notifySettingsInForce(db)).digestHour)));
    expect(mail.received).toHaveLength(1);
    const [m] = mail.received;
    // Unfolded (RFC 5322: a long header goes on over lines that start with white space).
    const header = (name: string) => m.headerLines.find((h) => h.key === name)?.line.replace(/\r\n(?=[ \t])/g, "");
    expect(header("list-unsubscribe")).toBe(`List-Unsubscribe: <${link(unsubscribeSignature(SECRET, "olga"))}>`);
    expect(header("list-unsubscribe-post")).toBe("List-Unsubscribe-Post: List-Unsubscribe=One-Click");
    expect(m.text).toContain(link(unsubscribeSignature(SECRET, "olga")));
  });

  it("answers a bad signature 403 and changes nothing; a GET only shows the button", async () => {
    const db = t.current.db;
    expect((await oneClick(link("bad"))).status).toBe(403);
    expect((await oneClick(link(unsubscribeSignature("another-secret", "olga")))).status).toBe(403);
    const page = await GET(new Request(link(unsubscribeSignature(SECRET, "olga"))), ctx);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(await page.text()).toContain('<form method="post"');
    expect(await emailSwitches(db)).toEqual({ filling: true, "growing-file": true, "lost-at-restart": true });
    const audits = await db.select().from(auditLog).where(eq(auditLog.action, "notifications.unsubscribed"));
    expect(audits).toEqual([]);
  });

  it("turns the optional kinds off on a POST of the link; they are skipped, and full still goes", async () => {
    const db = t.current.db;
    const res = await oneClick(link(unsubscribeSignature(SECRET, "olga")));
    expect(res.status).toBe(200);
    expect(await emailSwitches(db)).toEqual({ filling: false, "growing-file": false, "lost-at-restart": false });
    const audits = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "notifications.unsubscribed"), eq(auditLog.target, "olga")));
    expect(audits).toHaveLength(1);

    // Full, and a file that grew by 1.5 GiB since the day before: the first goes at once, the second is skipped.
    mail.received.length = 0;
    await send(db, OLGA, at(now, 0, 10), [root(2 * GiB)], volumeAt(97));
    const decided = new Date();
    await sendAllDue(sender(decided));
    await sendAllDue(sender(nextDigestAt(decided, (await notifySettingsInForce(db)).digestHour)));
    expect(mail.received.map((m) => m.subject)).toEqual(["Workspace olga-dev is full: 97 % used"]);
    expect(await statuses(db)).toEqual(
      expect.arrayContaining([
        { kind: "full", status: "sent" },
        { kind: "growing-file", status: "skipped" },
      ]),
    );
  });
});
