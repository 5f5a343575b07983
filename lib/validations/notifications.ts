import { z } from "zod";
import { NOTICE_CHANNELS, NOTICE_KINDS, type NoticeChannel, type OptionalKind } from "@/lib/notify/types";

// GET /api/v1/notifications: the notices of the last 30 days, narrowed by the admin's filters.

export const notificationsQuery = z.object({
  owner: z.string().trim().min(1).max(200).optional(),
  workspaceId: z.string().trim().min(1).max(200).optional(),
  kind: z.enum(NOTICE_KINDS).optional(),
  channel: z.enum(NOTICE_CHANNELS).optional(),
  status: z.enum(["pending", "sent", "failed", "skipped"]).optional(),
});
export type NotificationsQuery = z.infer<typeof notificationsQuery>;

/** Each optional kind on or off, on one channel. */
export type KindSwitches = Record<OptionalKind, boolean>;

/** GET /api/v1/me/notification-preferences: what the signed-in owner hears, per channel. */
export type NoticePreferences = {
  /** The Coder username the notices are addressed to. */
  owner: string;
  channels: Record<NoticeChannel, KindSwitches>;
  /** The kinds that always go, whatever is turned off. */
  alwaysSent: string[];
};

/** Each optional kind (OPTIONAL_KINDS) on or off; a kind not named stays as it is. */
const switches = z
  .object({
    filling: z.boolean().optional(),
    "growing-file": z.boolean().optional(),
    "lost-at-restart": z.boolean().optional(),
  })
  .strict() satisfies z.ZodType<Partial<KindSwitches>>;

/** PUT /api/v1/me/notification-preferences: the switches to change (the others stay). */
export const noticePreferencesChange = z
  .object({ channels: z.object({ email: switches.optional(), webhook: switches.optional() }).strict() })
  .strict();
export type NoticePreferencesChange = z.infer<typeof noticePreferencesChange>;

/** The one-click unsubscribe link's query (lib/notify/unsubscribe.ts). */
export const unsubscribeQuery = z.object({
  owner: z.string().min(1).max(200),
  sig: z.string().min(1).max(100),
});
