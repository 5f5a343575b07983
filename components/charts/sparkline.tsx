import { sparklinePath } from "./shape";

/** A tiny trend line in plain SVG (no chart library: one per table row). */
export function Sparkline({
  values,
  width = 96,
  height = 24,
  label,
}: {
  values: readonly (number | null)[];
  width?: number;
  height?: number;
  label?: string;
}) {
  const d = sparklinePath(values, width, height, 2);
  if (!d) return <span className="muted small">—</span>;
  return (
    <svg
      className="sparkline"
      width={width}
      height={height}
      viewBox={`0 0 ${width} ${height}`}
      role="img"
      aria-label={label}
    >
      <path d={d} />
    </svg>
  );
}
