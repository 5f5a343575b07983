import { sql } from "drizzle-orm";
import { beforeAll, expect, it } from "vitest";
import { POST as postReport } from "@/app/api/v1/reports/route";
import { forgetCoderEmails, saveOwnerEmails } from "@/lib/db/queries/notifications";
import { rowsOf } from "@/lib/db/types";
import { describeEachDatabase, serveRoutesFrom } from "@/tests/support/db";
import { seedWorkspace } from "@/tests/support/cleanup";
import { at, makeReport, MiB, testNow, type WorkspaceSpec } from "@/tests/support/reports";

// The owner's address from the report (CODER_WORKSPACE_OWNER_EMAIL, which the module sets): accepted when it is an
// address, ignored without failing the report when not; and its precedence: Coder's users API wins when it has
// one, the report's fills in when Coder has none (an empty or placeholder address counts as none).

const ctx = { params: Promise.resolve({}) };
const WS: WorkspaceSpec = { id: "ws-mail", name: "mail", owner: "mona" };

describeEachDatabase("the owner's address from the report", (t) => {
  let token = "";
  const now = testNow();
  // Yesterday from 11:00 on, an hour apart: after the first report (10:00), never in the future.
  let hour = 10;
  const contact = async () =>
    rowsOf<{ email: string; source: string }>(
      await t.current.db.execute(sql`select email, source from owner_contacts where owner = 'mona'`),
    );
  const reportWith = async (ownerEmail: unknown) => {
    const report = makeReport(WS, at(now, 1, ++hour), [{ key: "claude:data", agent: "claude-code", bytes: 5 * MiB }]);
    const body = { ...report, workspace: { ...report.workspace, ownerEmail } };
    const res = await postReport(
      new Request("http://dashboard.test/api/v1/reports", {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
        body: JSON.stringify(body),
      }),
      ctx,
    );
    const stored = rowsOf<{ n: number }>(
      await t.current.db.execute(sql`select count(*)::int as n from root_usage where report_id = ${report.id}`),
    );
    return { status: res.status, roots: stored[0].n };
  };

  beforeAll(async () => {
    serveRoutesFrom(t.current);
    ({ token } = await seedWorkspace(t.current.db, WS, at(now, 1), []));
  });

  it("ignores an address that is not one, or is too long, and keeps the rest of the report", async () => {
    for (const bad of ["not-an-address", `${"a".repeat(250)}@example.com`, 42, "default@example.com", ""])
      expect(await reportWith(bad)).toEqual({ status: 200, roots: 1 });
    expect(await contact()).toEqual([]);
  });

  it("keeps a report's address where Coder has none, and the newer report's over an older one", async () => {
    expect(await reportWith("mona@corp.example")).toEqual({ status: 200, roots: 1 });
    expect(await contact()).toEqual([{ email: "mona@corp.example", source: "report" }]);
    await reportWith("mona.new@corp.example");
    expect(await contact()).toEqual([{ email: "mona.new@corp.example", source: "report" }]);
  });

  it("lets Coder's address win over the report's, and the report's back once Coder has none", async () => {
    const db = t.current.db;
    await saveOwnerEmails(db, [{ owner: "mona", email: "mona@coder.example" }], now);
    expect(await contact()).toEqual([{ email: "mona@coder.example", source: "coder" }]);
    await reportWith("mona.other@corp.example");
    expect(await contact()).toEqual([{ email: "mona@coder.example", source: "coder" }]);
    // A report without the field (an older reporter) changes nothing either.
    await reportWith(undefined);
    expect(await contact()).toEqual([{ email: "mona@coder.example", source: "coder" }]);

    // Coder now has none for her (the sync forgets its own), so the next report's address is kept.
    await forgetCoderEmails(db, ["mona"]);
    await reportWith("mona.back@corp.example");
    expect(await contact()).toEqual([{ email: "mona.back@corp.example", source: "report" }]);
  });
});
