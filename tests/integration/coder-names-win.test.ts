// A workspace's owner decides which member sees it. Once Coder's sync has described a workspace, neither a report
// nor a second enrollment may rewrite its owner, name or template; before that, the reporter's are all there is.
// On both databases.
import { eq } from "drizzle-orm";
import { beforeAll, expect, it } from "vitest";
import { applyCoderSync } from "@/lib/db/queries/coder-sync";
import { listWorkspaces } from "@/lib/db/queries/workspace-list";
import { workspaces, workspaceTokens } from "@/lib/db/schema";
import { ownedBy } from "@/lib/db/scope";
import { enrollWorkspace, getEnrollmentKey } from "@/lib/enrollment/workspaces";
import { coderWorkspace } from "@/tests/support/coder-standin/workspaces";
import { describeEachDatabase } from "@/tests/support/db";
import { at, enroll, send, testNow, type WorkspaceSpec } from "@/tests/support/reports";

const now = testNow();
const ROOTS = [{ key: "claude", agent: "claude-code", bytes: 1000 }];
const VICTIM: WorkspaceSpec = { id: "ws-victim", name: "build", owner: "vera", template: "docker" };
const LONE: WorkspaceSpec = { id: "ws-lone", name: "lone", owner: "lou", template: "docker" };

describeEachDatabase("Coder's names win over a reporter's", (t) => {
  const row = async (id: string) => {
    const [r] = await t.current.db
      .select({ name: workspaces.name, owner: workspaces.owner, template: workspaces.template })
      .from(workspaces)
      .where(eq(workspaces.id, id));
    return r;
  };

  beforeAll(async () => {
    await enroll(t.current.db, VICTIM);
    await enroll(t.current.db, LONE);
    const described = coderWorkspace({ id: VICTIM.id, name: "build", owner_name: "vera", template_name: "docker" });
    await applyCoderSync(t.current.db, [described], [], now);
  });

  it("keeps Coder's owner, name and template when a report claims others", async () => {
    await send(t.current.db, { ...VICTIM, name: "mine-now", owner: "mallory", template: "x" }, at(now, 0), ROOTS);
    expect(await row(VICTIM.id)).toEqual({ name: "build", owner: "vera", template: "docker" });
    const mallory = await listWorkspaces(t.current.db, ownedBy("mallory"), {});
    expect(mallory.rows.map((w) => w.id)).not.toContain(VICTIM.id);
  });

  it("keeps them when the workspace enrolls again with other names", async () => {
    const { key } = await getEnrollmentKey(t.current.db);
    // A reset lets the key alone enroll the id again (the case where no token guards it).
    await t.current.db.delete(workspaceTokens).where(eq(workspaceTokens.workspaceId, VICTIM.id));
    await enrollWorkspace(t.current.db, { id: VICTIM.id, name: "mine", owner: "mallory" }, key, null);
    expect(await row(VICTIM.id)).toEqual({ name: "build", owner: "vera", template: "docker" });
  });

  it("takes the reporter's names for a workspace Coder has not described", async () => {
    await send(t.current.db, { ...LONE, name: "renamed", owner: "lou2" }, at(now, 0), ROOTS);
    expect(await row(LONE.id)).toMatchObject({ name: "renamed", owner: "lou2" });
  });
});
