import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { config, resetConfigForTests } from "@/lib/config";
import { saveOwnerEmails } from "@/lib/db/queries/notifications";
import { rowsOf, type Db } from "@/lib/db/types";
import { nextDigestAt } from "@/lib/notify/schedule";
import { describeEachDatabase } from "@/tests/support/db";
import { at, enroll, GiB, send, testNow, WS_A, type WorkspaceSpec } from "@/tests/support/reports";
import { startMailServer, type MailServer } from "@/tests/support/smtp-server";
import { sendAllDue, type Sender } from "./notification-sender";

// Email through a real SMTP server on loopback: a full volume's notice goes at once, on its own; the other notices
// of one owner wait for the digest hour and go as one message; an SMTP outage delays, and loses, nothing.

const TOTAL = 100 * GiB;
const volumeAt = (pct: number) => ({
  totalBytes: TOTAL,
  usedBytes: (TOTAL * pct) / 100,
  freeBytes: (TOTAL * (100 - pct)) / 100,
});
const root = { key: "claude:sessions", agent: "claude-code", path: ".claude", bytes: 50 * GiB };
const DORA: WorkspaceSpec[] = [
  { id: "ws-d1", name: "d-one", owner: "dora" },
  { id: "ws-d2", name: "d-two", owner: "dora" },
];

const pending = async (db: Db) =>
  rowsOf<{ n: number }>(
    await db.execute(sql`select count(*)::int as n from notification_outbox where status = 'pending'`),
  )[0].n;

describeEachDatabase("owners' notices by email", (t) => {
  let mail: MailServer;
  const now = testNow();

  beforeAll(async () => {
    mail = await startMailServer();
    vi.stubEnv("STORAGE_SMTP_URL", mail.url);
    vi.stubEnv("STORAGE_NOTIFY_FROM", "storage@example.com");
    vi.stubEnv("BETTER_AUTH_URL", "https://storage.example.com");
    resetConfigForTests();
    for (const ws of [WS_A, ...DORA]) await enroll(t.current.db, ws);
    await saveOwnerEmails(
      t.current.db,
      [
        { owner: "alice", email: "alice@example.com" },
        { owner: "dora", email: "dora@example.com" },
      ],
      now,
    );
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
    appUrl: "https://storage.example.com",
    clock: () => clock,
  });

  it("sends a full volume's notice at once, on its own, through an SMTP outage", async () => {
    const db = t.current.db;
    await send(db, WS_A, at(now, 1, 9), [root], volumeAt(97));
    mail.refuse = true;
    const sentAt = new Date();
    await sendAllDue(sender(sentAt));
    expect(mail.received).toHaveLength(0);
    expect(await pending(db)).toBe(1);
    mail.refuse = false;
    await sendAllDue(sender(new Date(sentAt.getTime() + 60_000)));
    expect(mail.received).toHaveLength(1);
    const [m] = mail.received;
    expect(m.to && "text" in m.to ? m.to.text : "").toBe("alice@example.com");
    expect(m.from?.text).toBe("storage@example.com");
    expect(m.subject).toBe("Workspace alpha is full: 97 % used");
    expect(m.text).toContain("claude-code: .claude");
    expect(m.html).toContain("<h3>Workspace alpha is full: 97 % used</h3>");
    expect(m.messageId).toMatch(/^<[0-9a-f]{32}@example\.com>$/);
    expect(await pending(db)).toBe(0);
  });

  it("gathers an owner's other notices into one digest at the digest hour", async () => {
    const db = t.current.db;
    mail.received.length = 0;
    for (const ws of DORA)
      for (const [day, pct] of [
        [3, 60],
        [2, 70],
        [1, 80],
      ])
        await send(db, ws, at(now, day, 10), [root], volumeAt(pct));
    expect(await pending(db)).toBe(2);
    const decided = new Date();
    await sendAllDue(sender(decided));
    expect(mail.received).toHaveLength(0);
    await sendAllDue(sender(nextDigestAt(decided, 8 /* the default digest hour */)));
    expect(mail.received).toHaveLength(1);
    const [digest] = mail.received;
    expect(digest.subject).toBe("Your workspaces' storage: 2 things to look at");
    expect(digest.text).toContain("Workspace d-one is filling");
    expect(digest.text).toContain("Workspace d-two is filling");
    expect(await pending(db)).toBe(0);
  });
});
