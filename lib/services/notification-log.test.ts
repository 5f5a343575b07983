import { beforeAll, expect, it } from "vitest";
import type { NotifyConfig } from "@/lib/config";
import { notificationOutbox } from "@/lib/db/schema";
import type { Notice } from "@/lib/notify/types";
import { describeEachDatabase } from "@/tests/support/db";
import { FLEET, ownedBy } from "@/lib/db/scope";
import { NotFoundError } from "@/lib/errors";
import { notificationsQuery } from "@/lib/validations/notifications";
import { enroll } from "@/tests/support/reports";
import { notificationsView, workspaceNotices } from "./notification-log";

// The admin's Notifications page: what each channel last did, and the last 30 days of notices with their fate.

const NOW = new Date("2026-11-20T12:00:00Z");
const daysAgo = (d: number) => new Date(NOW.getTime() - d * 86_400_000);

const notice = (workspace: string, owner: string): Notice => ({
  kind: "full",
  stateKey: "full",
  level: 1,
  workspace: { id: `id-${workspace}`, name: workspace, owner },
  figure: "97 % used",
  causes: [],
  action: { type: "grow-disk" },
  decidedAt: NOW.toISOString(),
});

const row = (workspace: string, owner: string, channel: string, created: Date, fate: Record<string, unknown>) => ({
  channel,
  kind: "full",
  workspaceId: `id-${workspace}`,
  owner,
  notice: notice(workspace, owner),
  createdAt: created,
  nextAttemptAt: created,
  ...fate,
});

const EMAIL_ONLY = { email: {}, webhook: null } as unknown as NotifyConfig;

describeEachDatabase("the Notifications page's view", (t) => {
  beforeAll(async () => {
    await t.current.db.insert(notificationOutbox).values([
      row("alpha", "alice", "email", daysAgo(1), { status: "sent", sentAt: daysAgo(1), attempts: 1 }),
      row("beta", "bob", "webhook", daysAgo(2), {
        status: "failed",
        attempts: 9,
        lastAttemptAt: daysAgo(1),
        lastError: "connect ECONNREFUSED",
      }),
      row("alpha", "alice", "email", daysAgo(0), { status: "pending" }),
      row("old", "alice", "email", daysAgo(31), { status: "sent", sentAt: daysAgo(31), attempts: 1 }),
    ]);
  });

  it("lists the notices of the last 30 days, newest first, with each one's fate and error", async () => {
    const view = await notificationsView(t.current.db, {}, NOW, EMAIL_ONLY);
    expect(view.notices.map((n) => [n.workspaceName, n.channel, n.status, n.lastError])).toEqual([
      ["alpha", "email", "pending", null],
      ["alpha", "email", "sent", null],
      ["beta", "webhook", "failed", "connect ECONNREFUSED"],
    ]);
  });

  it("narrows by owner, channel and status", async () => {
    const db = t.current.db;
    expect((await notificationsView(db, { owner: "bob" }, NOW, EMAIL_ONLY)).notices).toHaveLength(1);
    expect((await notificationsView(db, { channel: "email", status: "sent" }, NOW, EMAIL_ONLY)).notices).toHaveLength(
      1,
    );
    expect((await notificationsView(db, { workspaceId: "id-alpha" }, NOW, EMAIL_ONLY)).notices).toHaveLength(2);
  });

  it("gives each channel whether it is configured (by which variables), its last success, error and pending", async () => {
    const { channels } = await notificationsView(t.current.db, {}, NOW, EMAIL_ONLY);
    expect(channels).toEqual([
      {
        channel: "email",
        configured: true,
        variables: ["STORAGE_SMTP_URL", "STORAGE_NOTIFY_FROM"],
        signed: null,
        lastSuccessAt: daysAgo(1),
        lastErrorAt: null,
        lastError: null,
        pending: 1,
      },
      {
        channel: "webhook",
        configured: false,
        variables: ["STORAGE_NOTIFY_WEBHOOK_URL", "STORAGE_NOTIFY_WEBHOOK_SECRET"],
        signed: false,
        lastSuccessAt: null,
        lastErrorAt: daysAgo(1),
        lastError: "connect ECONNREFUSED",
        pending: 0,
      },
      {
        // no workspace's reporter delivers to its owner's Coder Inbox here
        channel: "coder-inbox",
        configured: false,
        variables: ["coder_inbox"],
        signed: null,
        lastSuccessAt: null,
        lastErrorAt: null,
        lastError: null,
        pending: 0,
      },
    ]);
  });

  it("finds an owner or a workspace by any part of its name, in any case, wildcards taken literally", async () => {
    const db = t.current.db;
    const names = async (q: string) =>
      (await notificationsView(db, { q }, NOW, EMAIL_ONLY)).notices.map((n) => n.workspaceName);
    expect(await names("BO")).toEqual(["beta"]);
    expect(await names("lph")).toEqual(["alpha", "alpha"]);
    expect(await names("%")).toEqual([]);
  });

  it("pages by key, newest first, each row once", async () => {
    const db = t.current.db;
    const first = await notificationsView(db, { limit: 2 }, NOW, EMAIL_ONLY);
    expect(first.notices).toHaveLength(2);
    const cursor = notificationsQuery.parse({ cursor: first.nextCursor }).cursor;
    const second = await notificationsView(db, { limit: 2, cursor }, NOW, EMAIL_ONLY);
    expect(second.nextCursor).toBeNull();
    expect([...first.notices, ...second.notices].map((n) => n.workspaceName)).toEqual(["alpha", "alpha", "beta"]);
  });

  it("shows a workspace's notices to its owner and to the fleet, and nothing of it to another member", async () => {
    const db = t.current.db;
    await enroll(db, { id: "id-alpha", name: "alpha", owner: "alice" });
    expect((await workspaceNotices(db, ownedBy("alice"), "id-alpha", NOW)).map((n) => n.status)).toEqual([
      "pending",
      "sent",
    ]);
    expect(await workspaceNotices(db, FLEET, "id-alpha", NOW)).toHaveLength(2);
    await expect(workspaceNotices(db, ownedBy("bob"), "id-alpha", NOW)).rejects.toThrow(NotFoundError);
    await expect(workspaceNotices(db, FLEET, "id-nowhere", NOW)).rejects.toThrow(NotFoundError);
  });
});
