import { z } from "zod";
import {
  NOTICE_CHANNELS,
  NOTICE_KINDS,
  SENDER_CHANNELS,
  type NoticeChannel,
  type OptionalKind,
} from "@/lib/notify/types";
import { toGetter, type SearchParamsInput } from "./search-params";

// GET /api/v1/notifications, its CSV export and the /notifications page: the notices of the last 30 days, narrowed
// by the admin's filters (carried in the page's URL), read in keyset pages: the cursor is "<ISO time>_<id>" of
// the last row seen.

export const NOTICE_STATUSES = ["pending", "sent", "failed", "skipped"] as const;

const cursor = z
  .string()
  .regex(/^\d{4}-\d\d-\d\dT[\d:.]+Z_[0-9a-f-]{36}$/, "is not a cursor from a previous page")
  .transform((s) => {
    const i = s.lastIndexOf("_");
    return { at: new Date(s.slice(0, i)), id: s.slice(i + 1) };
  })
  .refine((c) => !Number.isNaN(c.at.getTime()), "is not a cursor from a previous page");

export const noticeFilters = z.object({
  /** Text the owner, the workspace's name or its id contains (any case). */
  q: z.string().trim().min(1).max(200).optional(),
  owner: z.string().trim().min(1).max(200).optional(),
  workspaceId: z.string().trim().min(1).max(200).optional(),
  kind: z.enum(NOTICE_KINDS).optional(),
  channel: z.enum(NOTICE_CHANNELS).optional(),
  status: z.enum(NOTICE_STATUSES).optional(),
});
export type NoticeFilters = z.infer<typeof noticeFilters>;

export const notificationsQuery = noticeFilters.extend({
  cursor: cursor.optional(),
  limit: z.coerce.number().int().min(1).max(500).default(50),
});
export type NotificationsQuery = z.infer<typeof notificationsQuery>;

export const encodeNoticeCursor = (at: Date | string, id: string) => `${new Date(at).toISOString()}_${id}`;

/** The page's filters that the URL carries; a value that does not parse is left out, as if it were not there. */
export const NOTICE_FILTER_KEYS = ["q", "kind", "channel", "status"] as const;
export type NoticePageFilters = Pick<NoticeFilters, (typeof NOTICE_FILTER_KEYS)[number]>;

export function parseNoticeSearchParams(params: SearchParamsInput): NoticePageFilters {
  const p = toGetter(params);
  const out: NoticePageFilters = {};
  for (const key of NOTICE_FILTER_KEYS) {
    const parsed = noticeFilters.shape[key].safeParse(p.get(key) ?? undefined);
    if (parsed.success && parsed.data !== undefined) Object.assign(out, { [key]: parsed.data });
  }
  return out;
}

/** Body of POST /api/v1/notifications/test. */
/** The dashboard sends its tests itself: only on the channels it sends (a Coder Inbox notice needs the owner's token). */
export const noticeTestRequest = z.object({ channel: z.enum(SENDER_CHANNELS) }).strict();
export type NoticeTestRequest = z.infer<typeof noticeTestRequest>;

/** Each optional kind on or off, on one channel. */
export type KindSwitches = Record<OptionalKind, boolean>;

/** GET /api/v1/me/notification-preferences: what the signed-in owner hears, per channel. */
export type NoticePreferences = {
  /** The Coder username the notices are addressed to. */
  owner: string;
  channels: Record<NoticeChannel, KindSwitches>;
  /**
   * One of the owner's workspaces can deliver to their Coder Inbox (its reporter has Coder's URL and the owner's
   * token): the Coder Inbox switches are offered only then.
   */
  coderInbox: boolean;
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
  .object({
    channels: z
      .object({ email: switches.optional(), webhook: switches.optional(), "coder-inbox": switches.optional() })
      .strict(),
  })
  .strict();
export type NoticePreferencesChange = z.infer<typeof noticePreferencesChange>;

/** The one-click unsubscribe link's query (lib/notify/unsubscribe.ts). */
export const unsubscribeQuery = z.object({
  owner: z.string().min(1).max(200),
  sig: z.string().min(1).max(100),
});
