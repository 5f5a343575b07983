import { exactBytes, formatBytes, formatBytesDelta } from "@/lib/format/bytes";

/** A size in binary units with the exact byte count on hover. */
export function Bytes({ value, delta = false }: { value: number | null | undefined; delta?: boolean }) {
  const text = delta ? formatBytesDelta(value) : formatBytes(value);
  const cls = delta && value ? (value > 0 ? "delta up" : "delta down") : undefined;
  return (
    <span className={cls} title={exactBytes(value) || undefined}>
      {text}
    </span>
  );
}
