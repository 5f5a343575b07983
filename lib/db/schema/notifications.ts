import { sql } from "drizzle-orm";
import { boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";
import type { Notice } from "@/lib/notify/types";
import { workspaces } from "./workspaces";

const tz = (name: string) => timestamp(name, { withTimezone: true });

/**
 * The state each workspace's owner was last told of, per kind of notice (lib/notify/decide.ts): a notice goes out
 * when a workspace enters a state or worsens, never twice for one state. A cleared state's row is removed, so the
 * same state coming back is told again.
 */
export const noticeStates = pgTable(
  "notice_states",
  {
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    kind: text("kind").notNull(),
    /** What identifies the state ("filling:3" for full within 3 days, "full:97"...): a new key is a new notice. */
    stateKey: text("state_key").notNull(),
    /** How bad: a lower level of the same kind is an improvement, recorded without a notice. */
    level: integer("level").notNull(),
    decidedAt: tz("decided_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.kind] })],
);

/**
 * Every message to send, one row per notice and channel, written in the transaction that decided the notice: a
 * sender (lib/notify/sender.ts) claims due rows with a lease, so two instances never send one row at once, and a
 * crash loses nothing (the lease ends, another sender takes the row with the same delivery id, the row's id).
 */
export const notificationOutbox = pgTable(
  "notification_outbox",
  {
    /** The delivery id: a receiver that sees it twice has seen a repeat after a crash mid-send. */
    id: uuid("id").primaryKey().defaultRandom(),
    /** "email" or "webhook". */
    channel: text("channel").notNull(),
    kind: text("kind").notNull(),
    // No foreign key: the history of what was sent outlives the workspace.
    workspaceId: text("workspace_id").notNull(),
    owner: text("owner").notNull(),
    notice: jsonb("notice").$type<Notice>().notNull(),
    /**
     * "pending" until sent ("sent"), given up after the retry window ("failed"), or not sent because the owner
     * turned its kind off on its channel ("skipped").
     */
    status: text("status").notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    createdAt: tz("created_at").notNull(),
    /** Not sent before this: the retry backoff, or the next digest hour. */
    nextAttemptAt: tz("next_attempt_at").notNull(),
    /** A sender holds the row until then; after it, another may take it (the first crashed mid-send). */
    leaseUntil: tz("lease_until"),
    leaseOwner: text("lease_owner"),
    lastAttemptAt: tz("last_attempt_at"),
    sentAt: tz("sent_at"),
    lastError: text("last_error"),
  },
  (t) => [
    index("notification_outbox_due_idx")
      .on(t.nextAttemptAt)
      .where(sql`status = 'pending'`),
    index("notification_outbox_created_idx").on(t.createdAt),
    index("notification_outbox_attempt_idx").on(t.lastAttemptAt),
    index("notification_outbox_workspace_idx").on(t.workspaceId, t.createdAt),
  ],
);

/**
 * Where each workspace owner (by Coder username) is emailed: from Coder's users API (the Coder sync, source
 * "coder"), else from the owner's workspaces' reports (source "report"). Coder's address wins: a report never
 * replaces it, and an empty or placeholder address is never stored (docs/notifications.md). An owner without a
 * row gets no email.
 */
export const ownerContacts = pgTable("owner_contacts", {
  owner: text("owner").primaryKey(),
  email: text("email").notNull(),
  /** "coder" or "report". */
  source: text("source").notNull().default("coder"),
  updatedAt: tz("updated_at").notNull(),
});

/**
 * What an owner turned off: one row per owner, channel and optional kind (filling, growing file, lost at
 * restart) set by the owner; no row means on. Full and cleanup ahead always go and have no row.
 */
export const ownerNoticePreferences = pgTable(
  "owner_notice_preferences",
  {
    owner: text("owner").notNull(),
    /** "email" or "webhook". */
    channel: text("channel").notNull(),
    kind: text("kind").notNull(),
    enabled: boolean("enabled").notNull(),
    updatedAt: tz("updated_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.owner, t.channel, t.kind] })],
);
