// The workspace sync reads Coder's organizations and groups (the stand-in answers as Coder's source does): each
// workspace keeps its organization, the groups and their members are stored for the usage by group, and the sync
// goes on without groups where Coder refuses them: no license (403 on the enterprise build, 404 on the open-source
// one) or a token that may not read them (403), keeping the groups it stored before.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { coderClient } from "@/lib/coder/client";
import { teamGroups, teamMembers, teamOrganizations, workspaces } from "@/lib/db/schema";
import { syncFromCoder } from "@/lib/services/coder-sync";
import { startCoderStandIn, type CoderStandIn } from "@/tests/support/coder-standin/server";
import { coderTeams, type CoderTeams } from "@/tests/support/coder-standin/teams";
import { coderWorkspace, coderWorkspaces } from "@/tests/support/coder-standin/workspaces";
import { describeEachDatabase } from "@/tests/support/db";
import { testNow } from "@/tests/support/reports";

const TOKEN = "teams-token";
const ORG_A = "0a000000-0000-4000-8000-00000000000a";
const ORG_B = "0b000000-0000-4000-8000-00000000000b";
const ws = (n: number, owner: string, org: string) =>
  coderWorkspace({
    id: `6f1c2d3e-0000-4000-8000-00000000010${n}`,
    name: `w${n}`,
    owner_name: owner,
    organization_id: org,
  });

describeEachDatabase("teams from Coder", (t) => {
  let coder: CoderStandIn;
  let teams: CoderTeams;
  const now = testNow();
  const sync = () =>
    syncFromCoder(
      t.current.db,
      { url: coder.url, token: TOKEN },
      { client: coderClient({ url: coder.url, token: TOKEN, retries: 0, perSecond: 1000 }), now: () => now },
    );
  const stored = async () => ({
    orgs: (await t.current.db.select().from(teamOrganizations)).map((o) => o.name).sort(),
    members: (
      await t.current.db.select().from(teamMembers).innerJoin(teamGroups, eq(teamGroups.id, teamMembers.groupId))
    )
      .map((r) => `${r.team_groups.name}:${r.team_members.username}`)
      .sort(),
  });

  beforeAll(async () => {
    const api = coderWorkspaces({ tokens: [TOKEN], workspaces: [ws(1, "ann", ORG_A), ws(2, "Ben", ORG_B)] });
    teams = coderTeams({
      tokens: [TOKEN],
      organizations: [
        { id: ORG_A, name: "coder", display_name: "Coder", is_default: true },
        { id: ORG_B, name: "research", display_name: "Research" },
      ],
      groups: [
        { id: ORG_A, name: "Everyone", display_name: "", organization_id: ORG_A, members: ["ann", "Ben"] },
        {
          id: "9a000000-0000-4000-8000-000000000001",
          name: "data",
          display_name: "Data team",
          organization_id: ORG_A,
          members: ["ann"],
        },
        {
          id: "9b000000-0000-4000-8000-000000000002",
          name: "ml",
          display_name: "ML",
          organization_id: ORG_B,
          members: ["Ben", "ann"],
        },
      ],
    });
    coder = await startCoderStandIn([api.handler, teams.handler]);
  });
  afterAll(() => coder?.close());

  it("stores the organizations, each workspace's, and the groups with their members", async () => {
    expect((await sync()).error).toBeNull();
    const orgOf = await t.current.db
      .select({ owner: workspaces.owner, org: workspaces.organizationId })
      .from(workspaces);
    expect(orgOf.sort((a, b) => a.owner.localeCompare(b.owner))).toEqual([
      { owner: "ann", org: ORG_A },
      { owner: "Ben", org: ORG_B },
    ]);
    expect(await stored()).toEqual({
      orgs: ["coder", "research"],
      members: ["Everyone:ann", "Everyone:ben", "data:ann", "ml:ann", "ml:ben"],
    });
  });

  it("goes on without groups, keeping those stored, where Coder refuses them", async () => {
    const before = await stored();
    teams.groups.splice(1, 1); // a change the refused reads must not see
    for (const edition of ["unlicensed", "oss"] as const) {
      teams.edition.current = edition;
      const outcome = await sync();
      expect(outcome.error).toBeNull();
      expect(outcome.updated).toBe(2);
      expect(await stored()).toEqual(before);
    }
    teams.edition.current = "premium";
    teams.noGroupRead.add(TOKEN);
    expect((await sync()).error).toBeNull();
    expect(await stored()).toEqual(before);
    teams.noGroupRead.clear();
    await sync();
    expect((await stored()).members).toEqual(["Everyone:ann", "Everyone:ben", "ml:ann", "ml:ben"]);
    expect(teams.requests).toContain(`/api/v2/organizations/${ORG_B}/groups`);
  });
});
