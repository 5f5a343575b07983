import { z } from "zod";
import { INBOX_OUTCOME_MESSAGE_MAX, INBOX_OUTCOMES_MAX, type InboxOutcomes } from "@/lib/report-format/coder-inbox";

const message = z.string().max(INBOX_OUTCOME_MESSAGE_MAX);

/** Body of POST /api/v1/inbox/outcomes: what the reporter says became of the Coder Inbox notices it was handed. */
export const inboxOutcomes = z
  .object({
    outcomes: z
      .array(
        z.discriminatedUnion("outcome", [
          z.object({ id: z.uuid(), outcome: z.literal("delivered") }).strict(),
          z
            .object({
              id: z.uuid(),
              outcome: z.literal("refused"),
              status: z.number().int().min(100).max(599),
              message,
            })
            .strict(),
          z.object({ id: z.uuid(), outcome: z.literal("unreachable"), message }).strict(),
        ]),
      )
      .min(1)
      .max(INBOX_OUTCOMES_MAX),
  })
  .strict() satisfies z.ZodType<InboxOutcomes>;
