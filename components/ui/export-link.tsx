import { exportHref, type ExportParams } from "@/lib/validations/export";

/**
 * Downloads what a table or chart shows as CSV: a plain link with `download`, so the browser streams the file
 * straight to disk (no JavaScript holds it). `params` are the view's own URL parameters (filters, sort, range).
 */
export function ExportLink({
  path,
  params,
  label = "CSV",
  title,
}: {
  path: string;
  params?: ExportParams;
  label?: string;
  title?: string;
}) {
  return (
    <a
      className="button export-link"
      href={exportHref(path, params)}
      download
      data-testid="export-link"
      title={title ?? "Download as CSV"}
    >
      <span aria-hidden>↓</span> {label}
    </a>
  );
}
