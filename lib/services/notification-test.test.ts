import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { NotifyConfig } from "@/lib/config";
import { auditLog, notificationOutbox } from "@/lib/db/schema";
import { ConflictError, ValidationError } from "@/lib/errors";
import { describeEachDatabase, TEST_WHO } from "@/tests/support/db";
import { startMailServer, type MailServer } from "@/tests/support/smtp-server";
import { startWebhookReceiver, type WebhookReceiver } from "@/tests/support/webhook-receiver";
import { sendTestNotice } from "./notification-test";

// "Send a test": at once through the real channel code (a webhook receiver and an SMTP server on loopback), never
// through the outbox, and in the audit log whether it went or not.

const ADMIN = { actor: { type: "user" as const, id: "u1", label: "ada@example.com" } };
const APP = "https://storage.example.com";

describeEachDatabase("a test notice", (t) => {
  let hook: WebhookReceiver;
  let mail: MailServer;
  let notify: NotifyConfig;

  beforeAll(async () => {
    hook = await startWebhookReceiver("test-secret");
    mail = await startMailServer();
    notify = {
      email: { smtpUrl: mail.url, from: "storage@example.com" },
      webhook: { url: hook.url, secret: "test-secret" },
      allowPrivate: true,
      thresholds: {},
    };
  });
  afterAll(async () => {
    await hook?.close();
    await mail?.close();
  });

  const entries = () => t.current.db.select().from(auditLog).where(eq(auditLog.action, "notifications.test_sent"));

  it("posts a signed test to the webhook at once, outside the outbox, and audits it", async () => {
    const out = await sendTestNotice({ db: t.current.db, who: ADMIN }, "webhook", notify, APP);
    expect(out.error).toBeNull();
    expect(hook.received).toHaveLength(1);
    expect(hook.received[0]).toMatchObject({ signed: true, body: { test: true, kind: "full" } });
    expect(await t.current.db.select().from(notificationOutbox)).toEqual([]);
    expect((await entries()).map((e) => [e.target, e.details])).toEqual([
      ["webhook", { to: null, ok: true, error: null }],
    ]);
  });

  it("emails the signed-in admin's own address", async () => {
    const out = await sendTestNotice({ db: t.current.db, who: ADMIN }, "email", notify, APP);
    expect(out).toMatchObject({ channel: "email", to: "ada@example.com", error: null });
    expect(mail.received.map((m) => m.subject)).toEqual([expect.stringContaining("test-notice")]);
  });

  it("says what the channel answered when it refuses, and audits that too", async () => {
    hook.answer = 503;
    const out = await sendTestNotice({ db: t.current.db, who: ADMIN }, "webhook", notify, APP);
    hook.answer = 200;
    expect(out.error).toMatch(/webhook answered 503/);
    expect((await entries()).map((e) => e.details)).toContainEqual({ to: null, ok: false, error: out.error });
  });

  it("refuses a channel that is off, and an email test for a caller without an address", async () => {
    const off = { ...notify, webhook: null };
    await expect(sendTestNotice({ db: t.current.db, who: ADMIN }, "webhook", off, APP)).rejects.toThrow(ConflictError);
    await expect(sendTestNotice({ db: t.current.db, who: TEST_WHO }, "email", notify, APP)).rejects.toThrow(
      ValidationError,
    );
  });
});
