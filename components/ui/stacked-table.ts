import type { CSSProperties } from "react";

/**
 * The props of a table that stacks on a phone (app/globals.css, .table.stacked): its first cell on a line of its
 * own, the `figures` cells after it in equal columns under it. Wider screens see an ordinary table.
 */
export function stackedTable(figures: number): { className: string; style: CSSProperties } {
  return { className: "table stacked", style: { "--figures": figures } as CSSProperties };
}
