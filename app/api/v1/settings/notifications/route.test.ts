import { eq } from "drizzle-orm";
import { beforeAll, expect, it } from "vitest";
import { users } from "@/lib/db/schema";
import { createUser } from "@/lib/services/users";
import type { NotifySettingView } from "@/lib/services/notify-settings";
import { BASE, ctx, makePrincipals, signIn } from "@/tests/support/auth";
import { describeEachDatabase, serveRoutesFrom, TEST_WHO } from "@/tests/support/db";
import { enroll } from "@/tests/support/reports";
import { POST as postTest } from "../../notifications/test/route";
import { GET as getNotices } from "../../workspaces/[id]/notices/route";
import { GET, PUT } from "./route";

// The Notifications page's endpoints by caller: admins change settings and send tests; viewers, members and
// anonymous callers are refused; bad values change nothing; a member sees notices of their own workspace only.

type Headers = Record<string, string>;
const as: Record<"admin" | "viewer" | "member" | "anonymous", Headers> = {
  admin: {},
  viewer: {},
  member: {},
  anonymous: {},
};
const json = (method: string, path: string, headers: Headers, body: unknown) =>
  new Request(`${BASE}${path}`, {
    method,
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
const put = (who: Headers, body: unknown) => PUT(json("PUT", "/api/v1/settings/notifications", who, body), ctx());
const settingsNow = async () =>
  (
    (await (await GET(new Request(`${BASE}/api/v1/settings/notifications`, { headers: as.admin }), ctx())).json()) as {
      settings: NotifySettingView[];
    }
  ).settings;
const notices = (who: Headers, id: string) =>
  getNotices(new Request(`${BASE}/api/v1/workspaces/${id}/notices`, { headers: who }), ctx({ id }));

describeEachDatabase("the Notifications page's endpoints", (t) => {
  beforeAll(async () => {
    serveRoutesFrom(t.current);
    const db = t.current.db;
    const p = await makePrincipals(t.current, "notify");
    as.admin = { cookie: p.admin.cookie };
    as.viewer = { cookie: p.viewer.cookie };
    await createUser(db, { email: "mia@example.com", password: "mia-member-password-1", role: "viewer" }, TEST_WHO);
    await db.update(users).set({ role: "member", coderUsername: "mia" }).where(eq(users.email, "mia@example.com"));
    as.member = { cookie: await signIn("mia@example.com", "mia-member-password-1") };
    await enroll(db, { id: "ws-mia", name: "mine", owner: "mia" });
    await enroll(db, { id: "ws-other", name: "theirs", owner: "olga" });
  });

  it("lets only an admin change a setting", async () => {
    expect((await put(as.anonymous, { fillingDays: 9 })).status).toBe(401);
    expect((await put(as.member, { fillingDays: 9 })).status).toBe(403);
    expect((await put(as.viewer, { fillingDays: 9 })).status).toBe(403);
    const ok = await put(as.admin, { fillingDays: 9 });
    expect(ok.status).toBe(200);
    expect((await settingsNow()).find((s) => s.id === "fillingDays")).toMatchObject({ value: 9, source: "stored" });
  });

  it("refuses a value out of range, or an unknown setting, naming it, and changes nothing", async () => {
    for (const body of [{ fullPct: 101 }, { fillingDays: 0, digestHour: 3 }, { digestHour: 2.5 }, { cap: 1 }, {}]) {
      const res = await put(as.admin, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(/schema/);
    }
    const now = await settingsNow();
    expect(now.map((s) => [s.id, s.value])).toEqual([
      ["fillingDays", 9],
      ["fullPct", 95],
      ["growingFileGib", 1],
      ["digestHour", 8],
      ["maxPerHour", 500],
    ]);
  });

  it("sends a test only for an admin, and only on a configured channel", async () => {
    const test = (who: Headers, body: unknown) =>
      postTest(json("POST", "/api/v1/notifications/test", who, body), ctx());
    expect((await test(as.anonymous, { channel: "webhook" })).status).toBe(401);
    expect((await test(as.member, { channel: "webhook" })).status).toBe(403);
    expect((await test(as.viewer, { channel: "webhook" })).status).toBe(403);
    expect((await test(as.admin, { channel: "pager" })).status).toBe(422);
    expect((await test(as.admin, { channel: "webhook" })).status).toBe(409);
  });

  it("shows a member the notices of their own workspace, and 404 for another's", async () => {
    expect((await notices(as.anonymous, "ws-mia")).status).toBe(401);
    expect(await (await notices(as.member, "ws-mia")).json()).toEqual({ notices: [] });
    expect((await notices(as.member, "ws-other")).status).toBe(404);
    expect((await notices(as.viewer, "ws-other")).status).toBe(200);
  });
});
