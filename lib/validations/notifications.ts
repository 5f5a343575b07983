import { z } from "zod";
import { NOTICE_KINDS } from "@/lib/notify/types";
import { toGetter, type SearchParamsInput } from "./search-params";

// GET /api/v1/notifications, its CSV export and the /notifications page: the notices of the last 30 days, narrowed
// by the admin's filters (carried in the page's URL), read in keyset pages: the cursor is "<ISO time>_<id>" of
// the last row seen.

export const NOTICE_CHANNELS = ["email", "webhook"] as const;
export const NOTICE_STATUSES = ["pending", "sent", "failed"] as const;

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
export const noticeTestRequest = z.object({ channel: z.enum(NOTICE_CHANNELS) }).strict();
export type NoticeTestRequest = z.infer<typeof noticeTestRequest>;
