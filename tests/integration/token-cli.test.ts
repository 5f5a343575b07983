// npm run token -- create | list | revoke, as a separate process against each kind of database.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { verifyApiToken } from "@/lib/auth/api-tokens";
import { createUser } from "@/lib/services/users";
import { openEmbedded, openPostgres, type Database } from "@/lib/db/open";
import { createScratchPostgres, TEST_WHO } from "@/tests/support/db";

function cli(env: Record<string, string>, ...args: string[]) {
  const r = spawnSync("node", ["--conditions=react-server", "--import", "tsx", "scripts/token.ts", ...args], {
    env: { ...process.env, ...env },
    encoding: "utf8",
  });
  return { status: r.status, stdout: r.stdout.trim(), stderr: r.stderr };
}

for (const kind of ["embedded", "postgres"] as const) {
  describe(`token CLI [${kind}]`, () => {
    const cleanup: (() => Promise<void> | void)[] = [];
    afterAll(async () => {
      for (const c of cleanup.reverse()) await c();
    });

    it("creates a token printed once, lists it without the token, revokes it at once", async () => {
      let env: Record<string, string>;
      let open: () => Promise<Database>;
      if (kind === "embedded") {
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), "token-cli-"));
        cleanup.push(() => fs.rmSync(dir, { recursive: true, force: true }));
        env = { STORAGE_DATA_DIR: path.join(dir, "db"), DATABASE_URL: "" };
        open = () => openEmbedded(env.STORAGE_DATA_DIR);
      } else {
        const scratch = await createScratchPostgres();
        cleanup.push(scratch.drop);
        env = { DATABASE_URL: scratch.url };
        open = () => openPostgres(scratch.url, 2);
      }
      let database = await open();
      await createUser(
        database.db,
        { email: "root@example.com", password: "root-password-1", role: "admin" },
        TEST_WHO,
      );
      await database.close();

      expect(cli(env, "create", "--name", "nightly", "--role", "banana").status).toBe(2);
      const created = cli(env, "create", "--name", "nightly", "--role", "viewer", "--expires-in-days", "3");
      expect(created.status, created.stderr).toBe(0);
      const token = created.stdout;
      expect(token).toMatch(/^sdt_[A-Za-z0-9_-]{20,}$/);
      expect(created.stderr).not.toContain(token);

      const listed = cli(env, "list");
      expect(listed.status).toBe(0);
      expect(listed.stdout).toMatch(/\tnightly\tviewer\tactive\t/);
      expect(listed.stdout).not.toContain(token);
      const id = listed.stdout.split("\t")[0];

      database = await open();
      expect(await verifyApiToken(database.db, token)).toMatchObject({
        kind: "token",
        role: "viewer",
        label: "nightly",
      });
      await database.close();

      expect(cli(env, "revoke", id).status).toBe(0);
      expect(cli(env, "list").stdout).toMatch(/\tnightly\tviewer\trevoked\t/);
      database = await open();
      expect(await verifyApiToken(database.db, token)).toBeNull();
      await database.close();
    }, 180_000); // six CLI processes, each opening the database: a minute on a loaded machine
  });
}
