import { exactBytes, formatBytes, formatBytesDelta } from "@/lib/format/bytes";

/**
 * A size in binary units with the exact byte count on hover. An estimate reads "≈ 5.4 GiB": the mark goes
 * before the figure, as it is said ("about 5.4 GiB").
 */
export function Bytes({ value, delta = false, estimate = false }: { value: number | null | undefined; delta?: boolean; estimate?: boolean }) {
  const text = delta ? formatBytesDelta(value) : formatBytes(value);
  const cls = delta && value ? (value > 0 ? "delta up" : "delta down") : undefined;
  return (
    <span className={cls} title={exactBytes(value) || undefined}>
      {estimate ? `≈ ${text}` : text}
    </span>
  );
}
