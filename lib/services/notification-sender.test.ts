import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import type { NotifyConfig } from "@/lib/config";
import { addToOutbox, claimDue, settle } from "@/lib/db/queries/notifications";
import { rowsOf, type Db } from "@/lib/db/types";
import type { Notice } from "@/lib/notify/types";
import { describeEachDatabase } from "@/tests/support/db";
import { enroll, WS_A } from "@/tests/support/reports";
import { startWebhookReceiver, type WebhookReceiver } from "@/tests/support/webhook-receiver";
import { LEASE_MS, sendAllDue, sendDue, type Sender } from "./notification-sender";

// The outbox loses nothing and repeats nothing outside a crash mid-send: a sender stopped in the middle leaves its
// rows to another once their lease ends; two senders at once send each row once; an outage is retried with
// backoff and given up after a day; the hourly cap holds across instances. The clock is the test's.

const T0 = new Date("2026-11-20T10:00:00Z");
const later = (ms: number) => new Date(T0.getTime() + ms);
const MIN = 60_000;

const notice = (i: number): Notice => ({
  kind: "filling",
  stateKey: `filling:${i}`,
  level: 1,
  workspace: { id: WS_A.id, name: WS_A.name ?? WS_A.id, owner: WS_A.owner },
  figure: `full in ${i} days`,
  causes: [],
  action: { type: "grow-disk" },
  decidedAt: T0.toISOString(),
});

const statuses = async (db: Db) =>
  rowsOf<{ status: string; n: number }>(
    await db.execute(sql`select status, count(*)::int as n from notification_outbox group by 1 order by 1`),
  );

describeEachDatabase("the notification outbox", (t) => {
  let receiver: WebhookReceiver;
  let notify: NotifyConfig;

  beforeAll(async () => {
    receiver = await startWebhookReceiver("s");
    notify = {
      email: null,
      webhook: { url: receiver.url, secret: "s" },
      allowPrivate: true,
      thresholds: {},
    };
    await enroll(t.current.db, WS_A);
  });
  beforeEach(async () => {
    receiver.received.length = 0;
    receiver.answer = 200;
    receiver.onRequest = undefined;
    await t.current.db.execute(sql`delete from notification_outbox`);
  });
  afterAll(() => receiver.close());

  const queue = (n: number) =>
    addToOutbox(
      t.current.db,
      Array.from({ length: n }, (_, i) => ({ channel: "webhook" as const, notice: notice(i + 1), nextAttemptAt: T0 })),
      T0,
    );
  const sender = (id: string, at: Date, extra: Partial<Sender> = {}): Sender => ({
    db: t.current.db,
    id,
    notify,
    appUrl: "https://s.example.com",
    clock: () => at,
    ...extra,
  });
  const ids = () => receiver.received.map((r) => r.deliveryId);

  it("resumes from another sender what a stopped one leased, sending each row once", async () => {
    await queue(5);
    const stop = new AbortController();
    receiver.onRequest = () => stop.abort();
    await sendDue(sender("a", T0, { signal: stop.signal }));
    expect(ids()).toHaveLength(1);
    // The rest stay leased to the stopped sender: no one sends them before the lease ends.
    expect(await sendDue(sender("b", later(LEASE_MS - 1)))).toBe(0);
    receiver.onRequest = undefined;
    await sendAllDue(sender("b", later(LEASE_MS)));
    expect(ids()).toHaveLength(5);
    expect(new Set(ids()).size).toBe(5);
    expect(await statuses(t.current.db)).toEqual([{ status: "sent", n: 5 }]);
  });

  it("repeats a row only after a crash inside its send, with the same delivery id", async () => {
    await queue(1);
    const [leased] = await claimDue(t.current.db, {
      sender: "a",
      now: T0,
      leaseMs: LEASE_MS,
      maxPerHour: 500,
      limit: 1,
    });
    // "a" dies mid-send; after its lease "b" sends the row, and a late word from "a" changes nothing.
    await sendAllDue(sender("b", later(LEASE_MS)));
    expect(ids()).toEqual([leased.id]);
    expect(await settle(t.current.db, leased.id, "a", later(LEASE_MS + 1), { status: "failed", error: "x" })).toBe(
      false,
    );
    expect(await statuses(t.current.db)).toEqual([{ status: "sent", n: 1 }]);
  });

  it("lets two senders at once send every row exactly once", async () => {
    await queue(25);
    await Promise.all([sendAllDue(sender("a", T0)), sendAllDue(sender("b", T0))]);
    expect(ids().sort()).toEqual([...new Set(ids())].sort());
    expect(ids()).toHaveLength(25);
    expect(await statuses(t.current.db)).toEqual([{ status: "sent", n: 25 }]);
  });

  it("retries through an outage with backoff and gives up after a day with the last error", async () => {
    await queue(1);
    receiver.answer = 503;
    await sendAllDue(sender("a", T0));
    const [row] = rowsOf<{ status: string; last_error: string; next_attempt_at: string | Date }>(
      await t.current.db.execute(sql`select status, last_error, next_attempt_at from notification_outbox`),
    );
    expect(row).toMatchObject({ status: "pending", last_error: "webhook answered 503: " });
    expect(new Date(row.next_attempt_at)).toEqual(later(MIN));
    expect(await sendDue(sender("a", later(MIN - 1)))).toBe(0);
    receiver.answer = 200;
    await sendAllDue(sender("a", later(MIN)));
    expect(await statuses(t.current.db)).toEqual([{ status: "sent", n: 1 }]);

    await t.current.db.execute(sql`delete from notification_outbox`);
    await queue(1);
    receiver.answer = 500;
    for (
      let at = T0;
      (await statuses(t.current.db))[0].status === "pending";
      at = later(at.getTime() - T0.getTime() + 61 * MIN)
    )
      await sendAllDue(sender("a", at));
    const [failed] = rowsOf<{ status: string; attempts: number; last_error: string }>(
      await t.current.db.execute(sql`select status, attempts, last_error from notification_outbox`),
    );
    expect(failed).toMatchObject({ status: "failed", last_error: "webhook answered 500: " });
    expect(failed.attempts).toBeGreaterThan(20);
  });

  it("sends at most the hour's cap, across both senders, and the rest in the next hours", async () => {
    await queue(25);
    const capped = { ...notify, thresholds: { maxPerHour: 10 } };
    await Promise.all([
      sendAllDue(sender("a", T0, { notify: capped })),
      sendAllDue(sender("b", T0, { notify: capped })),
    ]);
    expect(ids()).toHaveLength(10);
    await sendAllDue(sender("a", later(30 * MIN), { notify: capped }));
    expect(ids()).toHaveLength(10);
    await sendAllDue(sender("b", later(60 * MIN + 1), { notify: capped }));
    expect(ids()).toHaveLength(20);
    await sendAllDue(sender("a", later(120 * MIN + 1), { notify: capped }));
    expect(new Set(ids()).size).toBe(25);
  });
});
