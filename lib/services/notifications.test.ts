import { sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { config, resetConfigForTests } from "@/lib/config";
import { rowsOf, type Db } from "@/lib/db/types";
import { describeEachDatabase } from "@/tests/support/db";
import { at, enroll, GiB, send, testNow, WS_A, type RootSpec } from "@/tests/support/reports";
import { startWebhookReceiver, type WebhookReceiver } from "@/tests/support/webhook-receiver";
import { sendAllDue } from "./notification-sender";

// A workspace that fills gets its owner one signed webhook saying what fills it and what to run; the same state
// is not told twice, a cleared state is forgotten and told again when it returns.

const SECRET = "webhook-secret";
const TOTAL = 100 * GiB;

const claude = (bytes: number): RootSpec => ({
  key: "claude:sessions",
  agent: "claude-code",
  path: ".claude/projects/<img src=x onerror=alert(1)>",
  bytes,
  recipes: {
    "claude-code-sessions": { units: 40, bytes: 30 * GiB, protectedUnits: 0, protectedBytes: 0, byAge: [] },
  },
});

const volumeAt = (pct: number) => ({
  totalBytes: TOTAL,
  usedBytes: (TOTAL * pct) / 100,
  freeBytes: (TOTAL * (100 - pct)) / 100,
});

const outbox = async (db: Db) =>
  rowsOf<{ kind: string; channel: string; status: string }>(
    await db.execute(sql`select kind, channel, status from notification_outbox order by created_at, id`),
  );

describeEachDatabase("owners' notices decided after ingest", (t) => {
  let receiver: WebhookReceiver;
  const now = testNow();

  beforeAll(async () => {
    receiver = await startWebhookReceiver(SECRET);
    vi.stubEnv("STORAGE_NOTIFY_WEBHOOK_URL", receiver.url);
    vi.stubEnv("STORAGE_NOTIFY_WEBHOOK_SECRET", SECRET);
    vi.stubEnv("STORAGE_NOTIFY_WEBHOOK_ALLOW_PRIVATE", "1");
    vi.stubEnv("BETTER_AUTH_URL", "https://storage.example.com");
    resetConfigForTests();
    await enroll(t.current.db, WS_A);
  });
  afterEach(() => {
    receiver.received.length = 0;
  });
  afterAll(async () => {
    vi.unstubAllEnvs();
    resetConfigForTests();
    await receiver.close();
  });

  const sender = () => ({ db: t.current.db, id: "s1", notify: config().notify, appUrl: "https://storage.example.com" });

  it("tells a full volume once, signed, with the largest cause and the cleanup that frees the most", async () => {
    const db = t.current.db;
    await send(db, WS_A, at(now, 2, 9), [claude(80 * GiB)], volumeAt(96));
    await send(db, WS_A, at(now, 2, 10), [claude(81 * GiB)], volumeAt(97));
    expect(await outbox(db)).toEqual([{ kind: "full", channel: "webhook", status: "pending" }]);

    await sendAllDue(sender());
    expect(receiver.received).toHaveLength(1);
    const [got] = receiver.received;
    expect(got.signed).toBe(true);
    expect(got.body).toMatchObject({
      deliveryId: got.deliveryId,
      kind: "full",
      workspace: { id: WS_A.id, name: WS_A.name, owner: WS_A.owner },
      figure: "96 % used",
      action: { type: "recipe", recipeId: "claude-code-sessions", bytes: 30 * GiB },
      link: `https://storage.example.com/workspaces/${WS_A.id}`,
    });
    expect(got.body.text).toContain("alpha is full");
    expect(got.body.text).toContain("&lt;img src=x onerror=alert\\(1\\)&gt;");
    expect(await outbox(db)).toEqual([{ kind: "full", channel: "webhook", status: "sent" }]);
  });

  it("forgets a cleared state and tells it again when it returns", async () => {
    const db = t.current.db;
    await send(db, WS_A, at(now, 1, 9), [claude(40 * GiB)], volumeAt(50));
    expect(await outbox(db)).toHaveLength(1);
    await send(db, WS_A, at(now, 1, 10), [claude(80 * GiB)], volumeAt(98));
    await sendAllDue(sender());
    expect(receiver.received.map((r) => r.body.kind)).toEqual(["full"]);
    expect(await outbox(db)).toHaveLength(2);
  });

  it("tells full when the report says the reporter's own writes failed for lack of space, whatever df says", async () => {
    const db = t.current.db;
    const noSpaceAt = async () =>
      rowsOf<{ at: Date | string | null }>(
        await db.execute(sql`select writes_failed_no_space_at as at from workspaces where id = ${WS_A.id}`),
      )[0].at;
    await send(db, WS_A, at(now, 0, 9), [claude(40 * GiB)], volumeAt(60), { writesFailedNoSpace: true });
    expect(new Date((await noSpaceAt())!).toISOString()).toBe(at(now, 0, 9));
    await sendAllDue(sender());
    expect(receiver.received.map((r) => r.body)).toMatchObject([
      { kind: "full", figure: "writes fail: no space left" },
    ]);

    await send(db, WS_A, at(now, 0, 10), [claude(40 * GiB)], volumeAt(60));
    expect(await noSpaceAt()).toBeNull();
  });
});

describe("notices without a configured channel", () => {
  it("queue nothing", async () => {
    const { configuredChannels } = await import("./notifications");
    expect(configuredChannels({ ...config().notify, webhook: null })).toEqual([]);
  });
});
