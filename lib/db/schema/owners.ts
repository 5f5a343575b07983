import { sql } from "drizzle-orm";
import { boolean, index, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { workspaces } from "./workspaces";

const tz = (name: string) => timestamp(name, { withTimezone: true, precision: 3 });

/**
 * Whether owners may run a recipe on their own workspaces (My storage), as an admin set it. A recipe without a row
 * follows the catalog's default (lib/cleanup/owners.ts).
 */
export const ownerRecipes = pgTable("owner_recipes", {
  recipe: text("recipe").primaryKey(),
  ownersMayRun: boolean("owners_may_run").notNull(),
  updatedAt: tz("updated_at").notNull(),
  updatedBy: text("updated_by").notNull(),
});

/**
 * An owner's Keep: a unit or folder of their workspace (a path relative to home) that no cleanup acts on until
 * `expiresAt`, or until an admin or the owner ends it. Sent to the reporter with each job beside the protect file.
 */
export const cleanupKeeps = pgTable(
  "cleanup_keeps",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    path: text("path").notNull(),
    createdAt: tz("created_at").notNull(),
    createdById: text("created_by_id"),
    createdByLabel: text("created_by_label").notNull(),
    expiresAt: tz("expires_at").notNull(),
    endedAt: tz("ended_at"),
    endedBy: text("ended_by"),
  },
  (t) => [
    index("cleanup_keeps_workspace_idx")
      .on(t.workspaceId, t.expiresAt)
      .where(sql`ended_at is null`),
    index("cleanup_keeps_expires_idx")
      .on(t.expiresAt)
      .where(sql`ended_at is null`),
  ],
);
