// Whether each agent of a workspace picks up where it left off after a restart: its support level and module
// (Coder's agent compatibility page), whether its own folders survive (the report's persistence facts), its
// AgentAPI state file, and the free space against what it needs. Pure: the panel and its tests share it.

import { OTHER_AGENT } from "@/lib/catalog/agents";
import { compatibilityOf, type SupportLevel } from "@/lib/catalog/compatibility";
import type { AgentapiState, Persistence, PersistenceVerdict, Placement } from "@/lib/report-format/persistence";

/** The root's fields the readiness reads. */
export type ReadinessRoot = { key: string; kind: string; agent: string; newestMtime: string | null };

export type AgentReadiness = {
  agent: string;
  support: SupportLevel | null;
  /** The module folders found: `coder/claude-code` (current layout) or `legacy:claude-module`. */
  modules: string[];
  /** The module version from which resume works; the module folder does not record the one installed. */
  minVersion: string | null;
  /** The worst verdict of the agent's own folders (of its module folders when it has none). */
  survives: PersistenceVerdict;
  /** Why, for the worst of them: "codex:data: tmpfs is memory, lost at every stop". */
  why: string;
  stateFiles: (AgentapiState & { behindHours: number | null })[];
  minBytes: number | null;
  /** Free space at least the agent's minimum; null when either is unknown. */
  enoughSpace: boolean | null;
};

const RANK: Record<PersistenceVerdict, number> = { "not-persistent": 0, unknown: 1, persistent: 2 };
const MIB = 1024 ** 2;

function worst(roots: readonly ReadinessRoot[], placed: Persistence["roots"]) {
  let out: { verdict: PersistenceVerdict; why: string } | null = null;
  for (const r of roots) {
    const p: Placement | undefined = placed[r.key];
    const verdict = p?.verdict ?? "unknown";
    const why = `${r.key}: ${p ? (p.link ? `${p.link.path} → ${p.link.target}, ${p.reason}` : p.reason) : "not reported"}`;
    if (!out || RANK[verdict] < RANK[out.verdict]) out = { verdict, why };
  }
  return out ?? { verdict: "unknown" as const, why: "no folder of this agent was found" };
}

const hoursBetween = (later: string, earlier: string) => (Date.parse(later) - Date.parse(earlier)) / 3600_000;

export function restartReadiness(
  persistence: Persistence | null,
  roots: readonly ReadinessRoot[],
  freeBytes: number | null,
): AgentReadiness[] {
  if (!persistence) return [];
  const agents = [...new Set(roots.filter((r) => r.agent !== OTHER_AGENT).map((r) => r.agent))].sort();
  return agents.flatMap((agent) => {
    const mine = roots.filter((r) => r.agent === agent);
    const own = mine.filter((r) => r.kind === "tool");
    const modules = mine.filter((r) => r.kind === "module" || r.kind === "legacy");
    if (own.length === 0 && modules.length === 0) return [];
    const compat = compatibilityOf(agent);
    const { verdict, why } = worst(own.length ? own : modules, persistence.roots);
    const newest = own.map((r) => r.newestMtime).reduce<string | null>((a, b) => (b && (!a || b > a) ? b : a), null);
    const stateFiles = (persistence.agentapi ?? [])
      .filter((s) => modules.some((m) => m.key === s.root))
      .map((s) => ({ ...s, behindHours: s.stateMtime && newest ? hoursBetween(newest, s.stateMtime) : null }));
    const minBytes = compat ? compat.minStorageMb * MIB : null;
    return [
      {
        agent,
        support: compat?.support ?? null,
        modules: modules.map((m) => m.key),
        minVersion: compat?.minVersion ?? null,
        survives: verdict,
        why,
        stateFiles,
        minBytes,
        enoughSpace: minBytes === null || freeBytes === null ? null : freeBytes >= minBytes,
      },
    ];
  });
}
