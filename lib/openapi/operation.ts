import type { z } from "zod";

/** What one route takes and answers, for the OpenAPI document (lib/openapi/operations.ts lists them). */
export type Operation = {
  summary: string;
  tag: string;
  query?: z.ZodType;
  body?: z.ZodType;
  /** The success status: 200 unless said (204: no body). */
  status?: 200 | 201 | 204;
  /**
   * JSON unless said: a CSV download, the Prometheus text exposition, a page (HTML), a backup file (gzip), or the
   * reporter's script with its checksum (JavaScript, or sha256sum's text line).
   */
  produces?: "csv" | "prometheus" | "html" | "gzip" | "script";
  response?: z.ZodType;
  /** The TypeScript type the route answers with, where its shape has no zod schema. */
  responseType?: string;
  /** How a public route authenticates instead of a dashboard session or token. */
  auth?: "workspace-token" | "enrollment-key" | "signed-link";
};

/** A CSV download, with the query it filters by. */
export const csv = (summary: string, query?: z.ZodType): Operation => ({
  summary,
  tag: "export",
  produces: "csv",
  query,
});
