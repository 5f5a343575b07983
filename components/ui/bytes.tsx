import { exactBytes, formatBytes, formatBytesDelta, formatRate } from "@/lib/format/bytes";

/**
 * A size in binary units, rounded to three significant digits, with the exact byte count on hover. `delta` signs
 * it ("+1.17 GiB"), `perDay` makes it a rate ("+181 MiB/day"). An estimate reads "≈ 5.4 GiB": the mark goes
 * before the figure, as it is said ("about 5.4 GiB").
 */
export function Bytes({
  value,
  delta = false,
  perDay = false,
  estimate = false,
}: {
  value: number | null | undefined;
  delta?: boolean;
  perDay?: boolean;
  estimate?: boolean;
}) {
  const text = perDay ? formatRate(value) : delta ? formatBytesDelta(value) : formatBytes(value);
  // A size is read whole: "14.4 GiB" never breaks between the number and its unit.
  const cls = `nowrap${delta && value ? (value > 0 ? " delta up" : " delta down") : ""}`;
  const exact = exactBytes(value);
  return (
    <span className={cls} title={exact ? (perDay ? `${exact} a day` : exact) : undefined}>
      {estimate ? `≈ ${text}` : text}
    </span>
  );
}
