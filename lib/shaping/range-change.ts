// Growth as a figure: what a chart of levels shows between its first and last points, so a card that states the
// change and the chart beside it can never disagree (one baseline day: the range's first).

export type RangeChange = {
  fromDay: string;
  toDay: string;
  fromBytes: number;
  toBytes: number;
  /** toBytes − fromBytes. */
  bytes: number;
  /** The change as a share of the first point; null when it was 0. */
  ratio: number | null;
};

/** The change between a series' first and last points, or null for a series of fewer than two. */
export function rangeChange(series: readonly { day: string; bytes: number }[]): RangeChange | null {
  if (series.length < 2) return null;
  const first = series[0];
  const last = series[series.length - 1];
  const bytes = last.bytes - first.bytes;
  return {
    fromDay: first.day,
    toDay: last.day,
    fromBytes: first.bytes,
    toBytes: last.bytes,
    bytes,
    ratio: first.bytes > 0 ? bytes / first.bytes : null,
  };
}
