import { requireCaller } from "@/lib/auth/access";
import { AppError } from "@/lib/errors";
import { readJson } from "@/lib/http/request";
import { handle, json } from "@/lib/http/response";
import { sendTestNotice, type TestOutcome } from "@/lib/services/notification-test";
import { noticeTestRequest } from "@/lib/validations/notifications";

export const dynamic = "force-dynamic";

/**
 * POST /api/v1/notifications/test { channel: "email" | "webhook" } → { channel, to, sentAt, error: null } once
 * the channel took the message (admin; audited either way). 409 when the channel is not configured; 502 with
 * the outcome in `details` when the channel refused or failed (its error in the message).
 */
export const POST = handle(async (request) => {
  const { db, who } = await requireCaller(request, "admin");
  const { channel } = await readJson(request, noticeTestRequest, 1024);
  const outcome = await sendTestNotice({ db, who }, channel);
  if (outcome.error) throw new AppError(502, "test_failed", `The ${channel} test failed: ${outcome.error}`, outcome);
  return json<TestOutcome>(outcome);
});
