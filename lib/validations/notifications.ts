import { z } from "zod";
import { NOTICE_KINDS } from "@/lib/notify/types";

// GET /api/v1/notifications: the notices of the last 30 days, narrowed by the admin's filters.

export const notificationsQuery = z.object({
  owner: z.string().trim().min(1).max(200).optional(),
  workspaceId: z.string().trim().min(1).max(200).optional(),
  kind: z.enum(NOTICE_KINDS).optional(),
  channel: z.enum(["email", "webhook"]).optional(),
  status: z.enum(["pending", "sent", "failed"]).optional(),
});
export type NotificationsQuery = z.infer<typeof notificationsQuery>;
