import { z } from "zod";

// GET /api/v1/audit and the /audit page: filters, and the keyset cursor "<ISO time>_<id>" of the last row seen.

// Year 0 and below are no year to PostgreSQL (it counts 1 BC), and the embedded database failed on them.
const storable = (d: Date) => d.getUTCFullYear() >= 1 && d.getUTCFullYear() <= 9999;

const cursor = z
  .string()
  .regex(/^\d{4}-\d\d-\d\dT[\d:.]+Z_\d+$/, "is not a cursor from a previous page")
  .transform((s) => {
    const i = s.lastIndexOf("_");
    return { at: new Date(s.slice(0, i)), id: Number(s.slice(i + 1)) };
  })
  .refine((c) => !Number.isNaN(c.at.getTime()) && storable(c.at), "is not a cursor from a previous page");

const instant = z.iso
  .datetime({ offset: true })
  .or(z.iso.date())
  .transform((s) => new Date(s))
  .refine(storable, "is outside the years 1 to 9999");

export const auditQuery = z.object({
  actor: z.string().trim().min(1).max(200).optional(),
  action: z.string().trim().min(1).max(100).optional(),
  from: instant.optional(),
  to: instant.optional(),
  cursor: cursor.optional(),
  limit: z.coerce.number().int().min(1).max(500).default(50),
});
export type AuditQuery = z.infer<typeof auditQuery>;
/** The filters alone: what an export of the whole log takes. */
export const auditFilterQuery = auditQuery.omit({ cursor: true, limit: true });
export type AuditFilters = Omit<AuditQuery, "cursor" | "limit">;

export const encodeCursor = (at: Date | string, id: number) => `${new Date(at).toISOString()}_${id}`;
