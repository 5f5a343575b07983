import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { resetConfigForTests } from "@/lib/config";
import { describeEachDatabase, serveRoutesFrom } from "@/tests/support/db";
import { signIn } from "@/tests/support/auth";
import { needsSetup } from "./users";
import { bootstrapAdminFromEnv } from "@/lib/services/users";

describeEachDatabase("first admin from ADMIN_EMAIL / ADMIN_PASSWORD", (t) => {
  const password = "bootstrap-admin-password";
  beforeAll(() => {
    serveRoutesFrom(t.current);
    process.env.ADMIN_EMAIL = "Boot@Example.com";
    process.env.ADMIN_PASSWORD = password;
    resetConfigForTests();
  });
  afterAll(() => {
    delete process.env.ADMIN_EMAIL;
    delete process.env.ADMIN_PASSWORD;
    resetConfigForTests();
  });

  it("is created once, when no user exists, without logging the password", async () => {
    const log = vi.spyOn(console, "log").mockImplementation(() => undefined);
    try {
      expect(await bootstrapAdminFromEnv(t.current.db)).toBe("created");
      expect(await bootstrapAdminFromEnv(t.current.db)).toBe("skipped");
      expect(log.mock.calls.flat().join(" ")).not.toContain(password);
    } finally {
      log.mockRestore();
    }
    expect(await needsSetup(t.current.db)).toBe(false);
    expect(await signIn("boot@example.com", password)).toMatch(/session_token=/);
  });
});
