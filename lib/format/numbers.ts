/** "42%" from a 0..1 ratio; "—" when unknown. */
export function formatPercent(ratio: number | null | undefined, digits = 0): string {
  if (ratio === null || ratio === undefined || !Number.isFinite(ratio)) return "—";
  // Something that rounds to 0 is not nothing: a 102 MiB folder's share of a large home is "<1%", not "0%".
  const smallest = 10 ** -digits;
  if (ratio > 0 && ratio * 100 < smallest / 2) return `<${smallest}%`;
  return `${(ratio * 100).toFixed(digits)}%`;
}

/** A count with thousands separators: "12,345". */
export function formatCount(n: number | null | undefined): string {
  if (n === null || n === undefined || !Number.isFinite(n)) return "—";
  return Math.round(n).toLocaleString("en-US");
}

/** Days as "3.2 days", "<1 day", "now" (already past), "> 1 year", "—". */
export function formatDays(days: number | null | undefined): string {
  if (days === null || days === undefined || !Number.isFinite(days)) return "—";
  if (days <= 0) return "now";
  if (days < 1) return "<1 day";
  if (days > 365) return "> 1 year";
  const rounded = days < 10 ? Math.round(days * 10) / 10 : Math.round(days);
  return `${rounded} ${rounded === 1 ? "day" : "days"}`;
}

/** A count and its noun, singular for exactly one: "1 workspace", "2 workspaces", "1,234 units", "0 errors". */
export function formatCountOf(n: number, noun: string, plural = `${noun}s`): string {
  return `${formatCount(n)} ${Math.round(n) === 1 ? noun : plural}`;
}
