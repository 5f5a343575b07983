// Display names for agent slugs (from the agent catalog) and the fleet chart's non-agent series.
import { AGENTS, agentDisplayName } from "@/lib/catalog/agents";

const SERIES_LABELS: Record<string, string> = {
  modules: "Modules",
  // Every coder-script-data folder, the current one and the orphaned ones.
  "script-data": "Script data",
  // Package caches (npm, pip, Go, Cargo, Maven, Gradle, Yarn, pnpm): roots of their own, no agent's.
  "package-cache": "Package caches",
  other: "Other",
};

export function agentLabel(slug: string | null | undefined): string {
  if (!slug) return "—";
  return SERIES_LABELS[slug] ?? agentDisplayName(slug);
}

/** Series keys that are not agents have no agent page. */
export function hasAgentPage(slug: string): boolean {
  return !(slug in SERIES_LABELS);
}

/** Every catalog agent, for filters. */
export const AGENT_OPTIONS: readonly { id: string; label: string }[] = AGENTS.map((a) => ({
  id: a.id,
  label: a.displayName,
}));
