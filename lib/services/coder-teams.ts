import "server-only";
import type { CoderClient } from "@/lib/coder/client";
import type { Db } from "@/lib/db";
import type { Who } from "@/lib/db/queries/audit";
import { replaceOrganizations, replaceTeams, type Team } from "@/lib/db/queries/teams";
import { withTransaction } from "./transaction";

/** What one read of Coder's teams found: the organizations always, the groups where Coder answered them. */
export type TeamsOutcome = {
  organizations: number;
  groups: number;
  /** Organizations whose groups Coder did not answer, with its status and message (no license: 403 or 404). */
  withoutGroups: { organization: string; status: number; message: string }[];
};

/**
 * Reads Coder's organizations and each one's groups with their members, and stores them for the usage by team
 * (docs/coder-sync.md). Organizations exist on every Coder; groups are a paid feature, and a token may lack the
 * right to read them: an organization whose groups Coder refuses keeps the groups stored before, and the sync goes
 * on without them. A read of one organization is the groups it stores: one transaction replaces them all.
 */
export async function syncTeams(db: Db, who: Who, client: CoderClient, now: Date): Promise<TeamsOutcome | null> {
  if (!client.listOrganizations || !client.listGroups) return null;
  const orgs = await client.listOrganizations();
  const teams: Team[] = [];
  const read: string[] = [];
  const withoutGroups: TeamsOutcome["withoutGroups"] = [];
  for (const org of orgs) {
    const answer = await client.listGroups(org.id);
    if (answer.kind === "unavailable") {
      withoutGroups.push({ organization: org.name, status: answer.status, message: answer.message });
      continue;
    }
    read.push(org.id);
    for (const g of answer.groups) {
      teams.push({
        id: g.id,
        organizationId: g.organization_id,
        name: g.name,
        displayName: g.display_name,
        members: (g.members ?? []).map((m) => m.username),
      });
    }
  }
  await withTransaction({ db, who, now }, async ({ tx }) => {
    await replaceOrganizations(
      tx,
      orgs.map((o) => ({ id: o.id, name: o.name, displayName: o.display_name })),
      now,
    );
    await replaceTeams(tx, "coder", teams, now, read);
  });
  return { organizations: orgs.length, groups: teams.length, withoutGroups };
}
