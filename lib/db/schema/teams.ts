import { index, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";

// Who is in which team, for usage by organization and group (docs/usage.md). Coder is the source: the workspace
// sync copies its organizations and groups with their members (lib/services/coder-teams.ts). Without a Coder sync
// an admin uploads an owner → team file instead, stored as groups of source "upload".

/** Coder's organizations as the sync last read them: a workspace names its organization by id. */
export const teamOrganizations = pgTable("team_organizations", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  displayName: text("display_name").notNull(),
  syncedAt: timestamp("synced_at", { withTimezone: true }).notNull(),
});

/** A team: a Coder group (source "coder", its id Coder's) or a team of an uploaded mapping ("upload:<name>"). */
export const teamGroups = pgTable(
  "team_groups",
  {
    id: text("id").primaryKey(),
    source: text("source").$type<"coder" | "upload">().notNull(),
    /** The Coder organization the group belongs to; null for an uploaded team. */
    organizationId: text("organization_id"),
    name: text("name").notNull(),
    displayName: text("display_name").notNull(),
    syncedAt: timestamp("synced_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("team_groups_source_idx").on(t.source)],
);

/**
 * A group's members by Coder username, lower-cased (Coder compares usernames case-insensitively; workspaces.owner
 * holds the username as sent): a user may be in several groups.
 */
export const teamMembers = pgTable(
  "team_members",
  {
    groupId: text("group_id")
      .notNull()
      .references(() => teamGroups.id, { onDelete: "cascade" }),
    username: text("username").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.groupId, t.username] }),
    // A workspace's groups are found by its owner, case-insensitively as Coder compares usernames.
    index("team_members_username_idx").on(t.username),
  ],
);
