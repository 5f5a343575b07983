import { expect, it } from "vitest";
import { teamGroups, teamMembers } from "@/lib/db/schema";
import { describeEachDatabase, TEST_WHO } from "@/tests/support/db";
import { enroll } from "@/tests/support/reports";
import { uploadTeams } from "./team-upload";

describeEachDatabase("an uploaded owner → team mapping", (t) => {
  const stored = async () =>
    (await t.current.db.select().from(teamMembers)).map((m) => `${m.groupId}:${m.username}`).sort();

  it("stores the teams, names the owners no workspace has, and refuses a malformed file whole", async () => {
    const db = t.current.db;
    await enroll(db, { id: "up-1", owner: "Ann" });
    await enroll(db, { id: "up-2", owner: "ben" });
    const ctx = { db, who: TEST_WHO };
    expect(await uploadTeams(ctx, "Owner,Team\nann,Data\nben,Web\nann,Web\nzed,Data\n")).toEqual({
      teams: 2,
      owners: 3,
      unknownOwners: ["zed"],
    });
    const before = await stored();
    expect(before).toEqual(["upload:Data:ann", "upload:Data:zed", "upload:Web:ann", "upload:Web:ben"]);
    for (const bad of [
      "owner,team\nann\n",
      'owner,team\n"ann,Data\n',
      "who,what\nann,Data\n",
      "owner,team\n,Data\n",
      "",
    ]) {
      await expect(uploadTeams(ctx, bad)).rejects.toMatchObject({ status: 400, code: "malformed_mapping" });
    }
    expect(await stored()).toEqual(before);
    await uploadTeams(ctx, "owner,team\nben,Ops\n");
    expect(await stored()).toEqual(["upload:Ops:ben"]);
    expect((await db.select().from(teamGroups)).map((g) => g.source)).toEqual(["upload"]);
  });
});
