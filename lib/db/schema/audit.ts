import { bigserial, index, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * Who did what, when, from where. Append-only: the app has no update or delete path, and a trigger
 * (migration audit_append_only) refuses UPDATE and DELETE in the database itself.
 */
export const auditLog = pgTable(
  "audit_log",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    at: timestamp("at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    /** "user" | "token" | "system" | "anonymous" */
    actorType: text("actor_type").notNull(),
    actorId: text("actor_id"),
    /** The user's email or the token's name, as it was at the time. */
    actorLabel: text("actor_label"),
    action: text("action").notNull(),
    target: text("target"),
    details: jsonb("details").$type<Record<string, unknown>>(),
    ip: text("ip"),
    userAgent: text("user_agent"),
  },
  (t) => [
    index("audit_log_at_idx").on(t.at.desc(), t.id.desc()),
    index("audit_log_action_idx").on(t.action, t.at.desc(), t.id.desc()),
    index("audit_log_actor_idx").on(t.actorLabel, t.at.desc(), t.id.desc()),
  ],
);
