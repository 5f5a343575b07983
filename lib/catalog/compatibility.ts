// Which agents can resume a Coder Task after a restart, from Coder's "Agent compatibility" page: the registry
// module, the module version from which resume works, the support level and the minimum storage. Keyed by the
// catalog's agent ids; the session folders themselves are the catalog's (lib/catalog/agents.ts), not the page's.

/**
 * "full": the module resumes the previous session by itself; "partial": resume is wired but off by default or
 * buggy; "planned": the agent keeps sessions but the module does not resume them yet; "none": cannot resume.
 */
export const SUPPORT_LEVELS = ["full", "partial", "planned", "none"] as const;
export type SupportLevel = (typeof SUPPORT_LEVELS)[number];

export const SUPPORT_LABELS: Record<SupportLevel, string> = {
  full: "Full",
  partial: "Partial",
  planned: "Planned",
  none: "Not supported",
};

export type Compatibility = {
  /** The registry module, namespace/name. */
  module: string;
  /** The module version from which resume works, where the page gives one. */
  minVersion?: string;
  support: SupportLevel;
  /** Free space the agent needs to keep its sessions, in MiB. */
  minStorageMb: number;
  note?: string;
};

export const COMPATIBILITY: Readonly<Record<string, Compatibility>> = {
  "claude-code": {
    module: "coder/claude-code",
    minVersion: "4.8.0",
    support: "full",
    minStorageMb: 100,
    note: "Sessions can grow to gigabytes.",
  },
  codex: { module: "coder-labs/codex", minVersion: "4.2.0", support: "full", minStorageMb: 100 },
  copilot: { module: "coder-labs/copilot", support: "partial", minStorageMb: 50 },
  opencode: { module: "coder-labs/opencode", support: "partial", minStorageMb: 50 },
  auggie: {
    module: "coder-labs/auggie",
    support: "planned",
    minStorageMb: 50,
    note: "May need Augment's servers to resume.",
  },
  goose: {
    module: "coder/goose",
    support: "planned",
    minStorageMb: 50,
    note: "sessions.db must keep its -wal and -shm files beside it on the same volume.",
  },
  "amazon-q": {
    module: "coder/amazon-q",
    support: "planned",
    minStorageMb: 50,
    note: "Its authentication is stored beside the sessions: lost, it must sign in again.",
  },
  gemini: {
    module: "coder-labs/gemini",
    support: "planned",
    minStorageMb: 200,
    note: "Sessions can reach 400 MB.",
  },
  cursor: { module: "coder-labs/cursor-cli", support: "planned", minStorageMb: 50 },
  amp: {
    module: "coder-labs/sourcegraph-amp",
    support: "planned",
    minStorageMb: 10,
    note: "Threads are kept on Sourcegraph's servers; only the configuration is local.",
  },
  aider: {
    module: "coder/aider",
    support: "none",
    minStorageMb: 50,
    note: "Aider starts each session afresh; --restore-chat-history only replays a Markdown log.",
  },
};

/** An agent's compatibility, or null for agents the page does not list (Kiro, custom roots). */
export function compatibilityOf(agent: string): Compatibility | null {
  return COMPATIBILITY[agent] ?? null;
}
