// Password guessing, through Better Auth's mount on both databases: attempts sent at once are counted before any
// password is checked, guesses slow down per account and address, the owner's correct password still works from
// where they signed in before while the account is under attack, and only admins read the admins' emails.
import { eq } from "drizzle-orm";
import { beforeAll, expect, it } from "vitest";
import { GET as admins } from "@/app/api/v1/admins/route";
import { listAudit } from "@/lib/db/queries/audit";
import { signInFailures } from "@/lib/db/schema";
import { BASE, ctx, postSignIn, signIn, someAddress } from "@/tests/support/auth";
import { describeEachDatabase, serveRoutesFrom, TEST_WHO } from "@/tests/support/db";
import { SIGN_IN_THROTTLE } from "./sign-in-limit";
import { createUser } from "@/lib/services/users";

const count = (statuses: number[], status: number) => statuses.filter((s) => s === status).length;
/** Forty sign-ins (each a scrypt hash) take their time on a loaded machine. */
const SLOW = 180_000;
/** The wait a refusal names, in seconds. */
const secondsOf = (body: string) => Number(/try again in (\d+) seconds/.exec(body)?.[1]);

describeEachDatabase("password guessing", (t) => {
  let n = 0;
  const anAccount = async (role: "admin" | "viewer" = "viewer") => {
    const email = `guessed-${++n}@example.com`;
    const password = `pw-guessed-${n}-0123456789`;
    await createUser(t.current.db, { email, password, role, name: `Person ${n}` }, TEST_WHO);
    return { email, password };
  };
  const checked = async (email: string) =>
    (await listAudit(t.current.db, { action: "auth.sign_in_failed" }, { limit: 500 })).entries.filter(
      (e) => e.target === email,
    ).length;

  beforeAll(() => serveRoutesFrom(t.current));

  it(
    "checks at most the limit of 40 wrong passwords sent at once from one address",
    async () => {
      const { email } = await anAccount();
      const address = someAddress();
      const statuses = await Promise.all(
        Array.from(
          { length: 40 },
          async () => (await postSignIn(email, "wrong-password", { "x-forwarded-for": address })).status,
        ),
      );
      expect(count(statuses, 401)).toBe(SIGN_IN_THROTTLE.pair.free);
      expect(count(statuses, 429)).toBe(40 - SIGN_IN_THROTTLE.pair.free);
      expect(await checked(email)).toBe(SIGN_IN_THROTTLE.pair.free);
    },
    SLOW,
  );

  it(
    "checks at most the account's limit of 40 sent at once from 40 addresses",
    async () => {
      const { email } = await anAccount();
      const statuses = await Promise.all(
        Array.from({ length: 40 }, async () => (await postSignIn(email, "wrong-password")).status),
      );
      expect(count(statuses, 401)).toBe(SIGN_IN_THROTTLE.account.free);
      expect(count(statuses, 429)).toBe(40 - SIGN_IN_THROTTLE.account.free);
    },
    SLOW,
  );

  it(
    "makes each further guess from an address wait twice as long as the one before",
    async () => {
      const { email } = await anAccount();
      const address = someAddress();
      const guess = () => postSignIn(email, "wrong-password", { "x-forwarded-for": address });
      for (let i = 0; i < SIGN_IN_THROTTLE.pair.free; i++) expect((await guess()).status).toBe(401);
      const first = await guess();
      expect(first.status).toBe(429);
      const firstWait = secondsOf(await first.text());
      expect(firstWait).toBeLessThanOrEqual(SIGN_IN_THROTTLE.pair.baseMs / 1000);
      // The wait has passed (moved back rather than waited out): one more guess, then twice the wait.
      const back = new Date(Date.now() - SIGN_IN_THROTTLE.pair.baseMs - 1000);
      await t.current.db
        .update(signInFailures)
        .set({ lastAt: back })
        .where(eq(signInFailures.key, `pair|${email}|${address}`));
      expect((await guess()).status).toBe(401);
      const second = await guess();
      expect(second.status).toBe(429);
      // Twice the first wait, less the moments this test took: more than the first wait in any case.
      expect(secondsOf(await second.text())).toBeGreaterThan(SIGN_IN_THROTTLE.pair.baseMs / 1000);
    },
    SLOW,
  );

  it(
    "lets the owner in from where they signed in before while their account is under attack",
    async () => {
      const { email, password } = await anAccount();
      const home = someAddress();
      await signIn(email, password, { "x-forwarded-for": home });
      await Promise.all(Array.from({ length: 40 }, () => postSignIn(email, "wrong-password")));
      // From a new place the account waits; from home the correct password still works.
      expect((await postSignIn(email, password)).status).toBe(429);
      expect((await postSignIn(email, password, { "x-forwarded-for": home })).status).toBe(200);
      // And a wrong one from home is still only one of that address's few.
      expect((await postSignIn(email, "wrong-password", { "x-forwarded-for": home })).status).toBe(401);
    },
    SLOW,
  );

  it(
    "shows the admins' emails to admins only; others get their names",
    async () => {
      const admin = await anAccount("admin");
      const viewer = await anAccount("viewer");
      const ask = async (who: { email: string; password: string }) => {
        const cookie = await signIn(who.email, who.password);
        const res = await admins(new Request(`${BASE}/api/v1/admins`, { headers: { cookie } }), ctx());
        expect(res.status).toBe(200);
        return (await res.json()) as { admins: { name: string; email?: string }[] };
      };
      const seen = await ask(viewer);
      expect(seen.admins).toContainEqual({ name: "Person " + admin.email.match(/\d+/)![0] });
      expect(JSON.stringify(seen)).not.toContain("@");
      expect((await ask(admin)).admins).toContainEqual({
        name: "Person " + admin.email.match(/\d+/)![0],
        email: admin.email,
      });
    },
    SLOW,
  );
});
