import prettyBytes from "pretty-bytes";

/** Bytes in binary units (KiB, MiB, GiB), at most one decimal: "1.5 GiB". Null/undefined/NaN become "—". */
export function formatBytes(bytes: number | null | undefined, digits = 1): string {
  if (bytes === null || bytes === undefined || !Number.isFinite(bytes)) return "—";
  return prettyBytes(bytes, { binary: true, maximumFractionDigits: digits });
}

/** A change in bytes with its sign: "+1.2 GiB", "−300 MiB", "0 B". */
export function formatBytesDelta(bytes: number | null | undefined, digits = 1): string {
  if (bytes === null || bytes === undefined || !Number.isFinite(bytes)) return "—";
  if (bytes === 0) return "0 B";
  const text = prettyBytes(Math.abs(bytes), { binary: true, maximumFractionDigits: digits });
  return `${bytes > 0 ? "+" : "−"}${text}`;
}

/** Bytes per day: "+1.2 GiB/day". */
export function formatRate(bytesPerDay: number | null | undefined): string {
  if (bytesPerDay === null || bytesPerDay === undefined || !Number.isFinite(bytesPerDay)) return "—";
  return `${formatBytesDelta(bytesPerDay)}/day`;
}

/** The exact count for a title attribute: "1,610,612,736 bytes". */
export function exactBytes(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined || !Number.isFinite(bytes)) return "";
  return `${Math.round(bytes).toLocaleString("en-US")} bytes`;
}

/** Compact axis label: no decimals above 10 units ("12 GiB", "1.5 GiB", "0 B"). */
export function formatBytesAxis(bytes: number): string {
  if (!Number.isFinite(bytes)) return "";
  if (bytes === 0) return "0 B";
  const text = prettyBytes(Math.abs(bytes), { binary: true, maximumFractionDigits: 1 });
  return bytes < 0 ? `−${text}` : text;
}
