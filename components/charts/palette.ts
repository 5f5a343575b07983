// One color per agent slug, the same on every chart and in both themes (mid-tone hues readable on light and
// dark backgrounds), no two agents so close that a stacked chart cannot tell them apart (Copilot was Gemini's
// blue, Cursor Codex's teal). Unknown slugs get a stable color from a hash of the slug.

export const AGENT_COLORS: Record<string, string> = {
  "claude-code": "#d97757",
  codex: "#10a37f",
  gemini: "#4285f4",
  goose: "#a855f7",
  opencode: "#eab308",
  copilot: "#c026d3",
  kiro: "#f43f5e",
  "amazon-q": "#f97316",
  cursor: "#854d0e",
  aider: "#84cc16",
  auggie: "#ec4899",
  amp: "#0ea5e9",
  modules: "#8b5cf6",
  "script-data": "#b45309",
  "orphaned-script-data": "#b45309",
  leftover: "#be123c",
  // npm's, pip's, Go's, Cargo's... caches: one series of their own, never an agent's
  "package-cache": "#4d7c0f",
  main: "#64748b",
  other: "#94a3b8",
};

const FALLBACK = ["#06b6d4", "#f59e0b", "#22c55e", "#e11d48", "#7c3aed", "#0284c7", "#65a30d", "#db2777"];

export function agentColor(slug: string): string {
  const known = AGENT_COLORS[slug];
  if (known) return known;
  let h = 0;
  for (let i = 0; i < slug.length; i++) h = (h * 31 + slug.charCodeAt(i)) >>> 0;
  return FALLBACK[h % FALLBACK.length];
}

/** Colors for series that are not agents (roots, categories, age buckets): stable by position. */
export const SERIES_COLORS = [
  "#2563eb",
  "#d97757",
  "#10a37f",
  "#a855f7",
  "#eab308",
  "#f43f5e",
  "#14b8a6",
  "#6366f1",
  "#84cc16",
  "#ec4899",
  "#0ea5e9",
  "#94a3b8",
];

export const CATEGORY_COLORS: Record<string, string> = {
  sessions: "#2563eb",
  logs: "#eab308",
  databases: "#10a37f",
  caches: "#a855f7",
  other: "#94a3b8",
};

/** Age buckets from fresh (cool) to old (warm). */
export const AGE_COLORS: Record<string, string> = {
  "1d": "#22c55e",
  "7d": "#84cc16",
  "30d": "#eab308",
  "90d": "#f97316",
  older: "#dc2626",
};

/** Mixes a hex color toward white (amount > 0) or black (amount < 0). */
export function shade(hex: string, amount: number): string {
  const n = Number.parseInt(hex.slice(1), 16);
  const target = amount > 0 ? 255 : 0;
  const a = Math.min(1, Math.abs(amount));
  const ch = (v: number) => Math.round(v + (target - v) * a);
  const r = ch((n >> 16) & 255),
    g = ch((n >> 8) & 255),
    b = ch(n & 255);
  return `#${((1 << 24) | (r << 16) | (g << 8) | b).toString(16).slice(1)}`;
}

/** Colors for a workspace's roots: each in its agent's hue, later roots of the same agent lighter or darker. */
export function rootColors(roots: readonly { key: string; agent: string }[]): Map<string, string> {
  const seen = new Map<string, number>();
  // Enough for the nine package caches a home may hold: a tenth root of one agent repeats the first's color.
  const steps = [0, 0.35, -0.3, 0.55, -0.5, 0.18, -0.15, 0.7, -0.62];
  const out = new Map<string, string>();
  for (const r of roots) {
    const i = seen.get(r.agent) ?? 0;
    seen.set(r.agent, i + 1);
    out.set(r.key, shade(agentColor(r.agent), steps[i % steps.length]));
  }
  return out;
}
