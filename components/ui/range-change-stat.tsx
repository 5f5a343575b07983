import { rangeChange } from "@/lib/shaping/range-change";
import { Bytes } from "./bytes";
import { Stat } from "./panel";

/**
 * A card with a chart's change over the picked range as a figure: the last point less the first, and its share of
 * the first, from the very series the chart draws (so the two share one baseline day).
 */
export function RangeChangeStat({
  label,
  series,
  testId,
}: {
  label: string;
  series: readonly { day: string; bytes: number }[];
  testId?: string;
}) {
  const change = rangeChange(series);
  return (
    <Stat
      testId={testId}
      label={label}
      sub={
        change ? (
          <>
            {change.ratio === null
              ? ""
              : `${change.ratio >= 0 ? "+" : "−"}${Math.abs(change.ratio * 100).toFixed(1)}% · `}
            from <Bytes value={change.fromBytes} /> on {change.fromDay} to <Bytes value={change.toBytes} /> on{" "}
            {change.toDay}
          </>
        ) : (
          "no two days to compare"
        )
      }
    >
      {change ? <Bytes value={change.bytes} delta /> : "—"}
    </Stat>
  );
}
