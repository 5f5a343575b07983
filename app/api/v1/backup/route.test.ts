// GET /api/v1/backup: admins only, audited, and the download is a whole backup of the app's open database.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { checkBackup } from "@/lib/backup/restore";
import { listAudit } from "@/lib/db/queries/audit";
import { makePrincipals } from "@/tests/support/auth";
import { scratchDir } from "@/tests/support/backup";
import { describeEachDatabase, serveRoutesFrom } from "@/tests/support/db";
import { seedScenario, testNow } from "@/tests/support/reports";
import { GET } from "./route";

const ctx = { params: Promise.resolve({}) };
const globalDb = globalThis as unknown as { __storageDb?: unknown };

describeEachDatabase("GET /api/v1/backup", (t) => {
  const tmp = scratchDir();
  let tokens: { admin: string; viewer: string };
  beforeAll(async () => {
    await seedScenario(t.current.db, testNow());
    serveRoutesFrom(t.current);
    const p = await makePrincipals(t.current, "backup");
    tokens = { admin: p.adminToken, viewer: p.viewerToken };
  });
  afterAll(() => {
    globalDb.__storageDb = undefined;
    tmp.remove();
  });
  const get = (query: string, token?: string) =>
    GET(
      new Request(`http://localhost/api/v1/backup${query}`, {
        headers: token ? { authorization: `Bearer ${token}` } : {},
      }),
      ctx,
    );

  it("refuses anyone but an admin, before reading its parameters", async () => {
    expect((await get("?secrets=maybe")).status).toBe(401);
    expect((await get("", tokens.viewer)).status).toBe(403);
  });

  it("streams a whole backup, audited, with the secrets only when asked", async () => {
    for (const [query, withSecrets] of [
      ["", false],
      ["?secrets=1", true],
    ] as const) {
      const res = await get(query, tokens.admin);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-disposition")).toMatch(
        /attachment; filename="storage-backup-.*\.storage-backup"/,
      );
      const file = path.join(tmp.dir, `download${withSecrets}`);
      fs.writeFileSync(file, Buffer.from(await res.arrayBuffer()));
      const { header, manifest } = await checkBackup(file);
      expect(header).toMatchObject({ kind: t.current.kind, withSecrets });
      expect(manifest.tables.find((x) => x.name === "reports")!.rows).toBe(7);
    }
    const { entries } = await listAudit(t.current.db, { action: "backup.downloaded" }, { limit: 10 });
    expect(entries.map((e) => e.details)).toEqual([{ withSecrets: true }, { withSecrets: false }]);
  });
});
