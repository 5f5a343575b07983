import { z } from "zod";
import { JOB_STATES } from "@/lib/cleanup/job-states";

// Response shapes of the API, in zod, where they are small: the OpenAPI document (GET /api/v1/openapi.json)
// describes the responses from these, and tests parse real responses with them. Larger answers (pages' data)
// are described there by their TypeScript types' names only.

/** Every error, from every route: lib/http/response.ts writes it. */
export const errorEnvelope = z.object({
  error: z.object({
    code: z.string().describe('Stable, machine-readable: "unauthorized", "forbidden", "invalid", "too_old", ...'),
    message: z.string(),
    details: z.unknown().optional(),
  }),
});

export const healthResponse = z.object({ status: z.literal("ok"), database: z.enum(["embedded", "postgres"]) });

export const enrollResponse = z.object({ workspaceId: z.string(), token: z.string().describe("swt_…, shown once") });

export const ingestResponse = z.object({
  reportId: z.string(),
  workspaceId: z.string(),
  status: z.enum(["stored", "duplicate"]),
  newest: z.boolean().describe("false when a newer report of the workspace was already stored"),
  roots: z.number().int(),
  inbox: z
    .array(z.object({ id: z.uuid(), title: z.string(), text: z.string(), link: z.string() }))
    .describe(
      "the owner's Coder Inbox notices for the reporter to deliver (only when the request says X-Coder-Inbox: ready)",
    ),
});

export const inboxOutcomesResponse = z.object({ applied: z.number().int() });

export const jobProgressResponse = z.object({ leaseExpiresAt: z.iso.datetime(), cancelled: z.boolean() });

export const jobResultResponse = z.object({ jobId: z.string(), state: z.enum(JOB_STATES), stored: z.boolean() });
