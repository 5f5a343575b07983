import { beforeAll, expect, it } from "vitest";
import { describeEachDatabase } from "@/tests/support/db";
import { FLEET, ownedBy } from "@/lib/db/scope";
import { enroll, MiB, send, testNow } from "@/tests/support/reports";
import { pageTargetExists } from "./page-targets";

describeEachDatabase("the record a page names", (t) => {
  beforeAll(async () => {
    const ws = { id: "pt-a", owner: "alice" };
    await enroll(t.current.db, ws);
    await send(t.current.db, ws, testNow().toISOString(), [
      { key: "legacy:widget", agent: "widget-cli", bytes: 1 * MiB },
      { key: "coder/widget", kind: "module", agent: "other", bytes: 1 * MiB },
    ]);
  });

  it("finds a workspace within the caller's scope only", async () => {
    const db = t.current.db;
    await expect(pageTargetExists(db, FLEET, { kind: "workspace", id: "pt-a" })).resolves.toBe(true);
    await expect(pageTargetExists(db, ownedBy("ALICE"), { kind: "workspace", id: "pt-a" })).resolves.toBe(true);
    await expect(pageTargetExists(db, ownedBy("bob"), { kind: "workspace", id: "pt-a" })).resolves.toBe(false);
    await expect(pageTargetExists(db, FLEET, { kind: "workspace", id: "pt-none" })).resolves.toBe(false);
  });

  it("finds an agent the catalog knows or the data has seen, and no other", async () => {
    const db = t.current.db;
    await expect(pageTargetExists(db, FLEET, { kind: "agent", id: "claude-code" })).resolves.toBe(true);
    await expect(pageTargetExists(db, FLEET, { kind: "agent", id: "widget-cli" })).resolves.toBe(true);
    await expect(pageTargetExists(db, FLEET, { kind: "agent", id: "no-such-agent" })).resolves.toBe(false);
  });

  it("finds a module a workspace holds, and no other", async () => {
    const db = t.current.db;
    await expect(pageTargetExists(db, FLEET, { kind: "module", id: "coder/widget" })).resolves.toBe(true);
    await expect(pageTargetExists(db, FLEET, { kind: "module", id: "coder/none" })).resolves.toBe(false);
    await expect(pageTargetExists(db, FLEET, { kind: "module", id: "legacy:widget" })).resolves.toBe(false);
  });

  it("finds no run or policy that was never made, and no invalid id", async () => {
    const db = t.current.db;
    const none = "00000000-0000-4000-8000-000000000000";
    await expect(pageTargetExists(db, FLEET, { kind: "run", id: none })).resolves.toBe(false);
    await expect(pageTargetExists(db, FLEET, { kind: "policy", id: none })).resolves.toBe(false);
    await expect(pageTargetExists(db, FLEET, { kind: "invalid" })).resolves.toBe(false);
  });
});
