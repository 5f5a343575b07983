import type { z } from "zod";
import { openCsvStream, type CsvStreamOptions } from "@/lib/csv/stream";
import type { SomeCsvExport } from "@/lib/csv/columns";
import { validate } from "@/lib/validations/validate";

/**
 * Like readQuery, but a parameter given more than once arrives as an array (list filters such as
 * ?workspace=a&workspace=b); a single one stays a string, so the same schemas read both.
 */
export function readQueryLists<S extends z.ZodType>(request: Request, schema: S): z.infer<S> {
  const params = new URL(request.url).searchParams;
  const query: Record<string, string | string[]> = {};
  for (const key of new Set(params.keys())) {
    const all = params.getAll(key);
    query[key] = all.length > 1 ? all : all[0];
  }
  return validate(schema, query, "query parameters");
}

/** A file name safe inside a quoted Content-Disposition value (ASCII letters, digits, . _ -). */
export function safeFilename(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]+/g, "_").slice(0, 150) || "export.csv";
}

/** Streams an export as a CSV download. Failures before the first row leave through the error envelope. */
export async function csvResponse(exp: SomeCsvExport, opts: CsvStreamOptions = {}): Promise<Response> {
  const onError = (err: unknown) => console.error(`[export] ${exp.filename} failed while streaming:`, err);
  const body = exp.open ? await exp.open(onError) : await openCsvStream(exp, { onError, ...opts });
  return new Response(body, {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="${safeFilename(exp.filename)}"`,
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
    },
  });
}
