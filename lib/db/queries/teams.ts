import "server-only";
import { and, eq, inArray, notInArray, sql } from "drizzle-orm";
import { teamGroups, teamMembers, teamOrganizations, workspaces } from "../schema";
import type { Db } from "../types";

// What the usage by team reads its teams from: Coder's organizations and groups as the sync read them, or the
// teams of an uploaded owner → team mapping. Each writer replaces its own source's rows whole, in the caller's
// transaction, so a page never reads half of one.

export type TeamOrganization = { id: string; name: string; displayName: string };
export type Team = { id: string; organizationId: string | null; name: string; displayName: string; members: string[] };

/** Coder's organizations, replacing those kept (an organization Coder no longer lists is dropped). */
export async function replaceOrganizations(tx: Db, orgs: TeamOrganization[], now: Date): Promise<void> {
  const ids = orgs.map((o) => o.id);
  await tx.delete(teamOrganizations).where(ids.length ? notInArray(teamOrganizations.id, ids) : sql`true`);
  if (!orgs.length) return;
  await tx
    .insert(teamOrganizations)
    .values(orgs.map((o) => ({ ...o, syncedAt: now })))
    .onConflictDoUpdate({
      target: teamOrganizations.id,
      set: { name: sql`excluded.name`, displayName: sql`excluded.display_name`, syncedAt: now },
    });
}

/**
 * The teams of one source, replacing that source's teams and members (`organizations`: only those organizations'
 * groups, for a sync that read some organizations' groups and not others'). Usernames are kept lower-cased.
 */
export async function replaceTeams(
  tx: Db,
  source: "coder" | "upload",
  teams: Team[],
  now: Date,
  organizations?: string[],
): Promise<void> {
  if (organizations === undefined) await tx.delete(teamGroups).where(eq(teamGroups.source, source));
  else if (organizations.length) {
    await tx
      .delete(teamGroups)
      .where(and(eq(teamGroups.source, source), inArray(teamGroups.organizationId, organizations)));
  }
  if (!teams.length) return;
  await tx.insert(teamGroups).values(
    teams.map((t) => ({
      id: t.id,
      source,
      organizationId: t.organizationId,
      name: t.name,
      displayName: t.displayName,
      syncedAt: now,
    })),
  );
  const members = teams.flatMap((t) =>
    [...new Set(t.members.map((m) => m.toLowerCase()))].map((username) => ({ groupId: t.id, username })),
  );
  for (let i = 0; i < members.length; i += 1000) await tx.insert(teamMembers).values(members.slice(i, i + 1000));
}

/**
 * What the pages call organizations and groups, by id: their display names, a group's with its organization's
 * ("Engineering / Platform"). Ids no longer known are left out.
 */
export async function teamLabels(db: Db, kind: "organization" | "group", ids: string[]): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  const known = ids.filter(Boolean);
  if (!known.length) return names;
  const orgName = async (orgIds: string[]) => {
    const orgs = orgIds.length
      ? await db.select().from(teamOrganizations).where(inArray(teamOrganizations.id, orgIds))
      : [];
    return new Map(orgs.map((o) => [o.id, o.displayName || o.name]));
  };
  if (kind === "organization") return orgName(known);
  const groups = await db.select().from(teamGroups).where(inArray(teamGroups.id, known));
  const orgs = await orgName([...new Set(groups.map((g) => g.organizationId).filter((id): id is string => !!id))]);
  for (const g of groups) {
    const org = g.organizationId ? orgs.get(g.organizationId) : undefined;
    names.set(g.id, `${org ? `${org} / ` : ""}${g.displayName || g.name}`);
  }
  return names;
}

/** The owners the dashboard knows (lower-cased): an uploaded mapping's unknown owners are named back. */
export async function knownOwners(db: Db): Promise<Set<string>> {
  const rows = await db.selectDistinct({ owner: sql<string>`lower(${workspaces.owner})` }).from(workspaces);
  return new Set(rows.map((r) => r.owner));
}
