// Display names for agent slugs and the fleet chart's non-agent series.
// TODO: read display names from lib/catalog/agents.ts once the reporter's catalog lands.

const LABELS: Record<string, string> = {
  "claude-code": "Claude Code",
  codex: "Codex",
  gemini: "Gemini CLI",
  goose: "Goose",
  opencode: "OpenCode",
  copilot: "Copilot CLI",
  kiro: "Kiro",
  "amazon-q": "Amazon Q",
  cursor: "Cursor CLI",
  aider: "Aider",
  auggie: "Auggie",
  amp: "Amp",
  modules: "Modules",
  "script-data": "Script data (orphaned)",
  other: "Other",
};

export function agentLabel(slug: string | null | undefined): string {
  if (!slug) return "—";
  return LABELS[slug] ?? slug;
}

/** Series keys that are not agents have no agent page. */
export function hasAgentPage(slug: string): boolean {
  return slug !== "modules" && slug !== "script-data" && slug !== "other";
}
