import prettyBytes from "pretty-bytes";

type MaybeBytes = number | null | undefined;

const known = (bytes: MaybeBytes): bytes is number => bytes !== null && bytes !== undefined && Number.isFinite(bytes);

/**
 * The magnitude in binary units, rounded to three significant digits: 18.99 GiB is "19 GiB", 14.087 GiB
 * "14.1 GiB". That is pretty-bytes' default; its fraction-digit options truncate ("18.9 GiB"), so none is passed,
 * and the screen says what a CSV's exact bytes round to.
 */
const UNITS = ["B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"];

/**
 * Four digits ("1002 MiB", between 1000 and 1023 of a unit) read as larger than "1.03 GiB" beside them: those
 * are written in the next unit, to three significant digits ("0.979 GiB").
 */
function magnitude(bytes: number): string {
  const abs = Math.abs(bytes);
  const text = prettyBytes(abs, { binary: true });
  const [figure, unit] = text.split(" ");
  const i = UNITS.indexOf(unit);
  if (Number(figure) < 1000 || i < 0 || i === UNITS.length - 1) return text;
  return `${Number((abs / 1024 ** (i + 1)).toPrecision(3))} ${UNITS[i + 1]}`;
}

/** A size: "1.5 KiB", "14.1 GiB", "1.07 TiB". Null/undefined/NaN become "—". */
export function formatBytes(bytes: MaybeBytes): string {
  if (!known(bytes)) return "—";
  return bytes < 0 ? `−${magnitude(bytes)}` : magnitude(bytes);
}

/** A change in bytes with its sign: "+1.17 GiB", "−300 MiB", "0 B". */
export function formatBytesDelta(bytes: MaybeBytes): string {
  if (!known(bytes)) return "—";
  return bytes > 0 ? `+${magnitude(bytes)}` : formatBytes(bytes);
}

/** Bytes per day: "+1.17 GiB/day". */
export function formatRate(bytesPerDay: MaybeBytes): string {
  return known(bytesPerDay) ? `${formatBytesDelta(bytesPerDay)}/day` : "—";
}

/** The exact count for a title attribute: "1,610,612,736 bytes". */
export function exactBytes(bytes: MaybeBytes): string {
  if (!known(bytes)) return "";
  return `${Math.round(bytes).toLocaleString("en-US")} bytes`;
}

/** An axis tick: a size as formatBytes writes it, blank where the scale has no number. */
export function formatBytesAxis(bytes: number): string {
  return Number.isFinite(bytes) ? formatBytes(bytes) : "";
}
