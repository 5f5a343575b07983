// The demo's homes beyond the agents: what a developer's home holds besides them (package caches, node_modules,
// an IDE server, container layers, checkouts), so that every demo disk is explained to the byte: the roots,
// these folders and the file system's own share add up to df's Used.

import type { HomeKind } from "@/lib/report-format/home-kinds";
import { HOME_LARGEST, HOME_LARGEST_SHARE } from "@/lib/report-format/home-kinds";
import type { HomeFolder, HomeUsage } from "@/lib/report-format/home";
import type { StorageRoot } from "@/lib/report-format/schema";
import type { Random } from "./random";

/** A folder of the rest, by share of the rest, and where it lies. */
type Part = { path: string; kind?: HomeKind; share: number };

/** How one workspace's rest of the home is made up: drawn once, so its folders keep their proportions. */
export type HomeShape = { parts: Part[]; nestedIde: boolean; openFiles: number };

const PROJECTS = ["app", "api", "web", "infra"];

export function drawHomeShape(rnd: Random): HomeShape {
  const project = rnd.pick(PROJECTS);
  const weights: Part[] = [
    { path: ".npm", kind: "package-cache", share: rnd.between(0.05, 0.15) },
    { path: ".cache/pip", kind: "package-cache", share: rnd.between(0, 0.06) },
    { path: "go/pkg/mod", kind: "package-cache", share: rnd.chance(0.4) ? rnd.between(0.05, 0.2) : 0 },
    { path: ".cache/go-build", kind: "package-cache", share: rnd.between(0, 0.05) },
    { path: ".m2/repository", kind: "package-cache", share: rnd.chance(0.2) ? rnd.between(0.03, 0.1) : 0 },
    { path: `src/${project}/node_modules`, kind: "project-deps", share: rnd.between(0.1, 0.3) },
    { path: `src/${project}/.git`, share: rnd.between(0.02, 0.08) },
    { path: ".vscode-server", kind: "ide-server", share: rnd.between(0.03, 0.12) },
    { path: ".local/share/containers", kind: "containers", share: rnd.chance(0.25) ? rnd.between(0.05, 0.2) : 0 },
    { path: "Downloads", share: rnd.between(0, 0.05) },
    { path: ".cargo/registry", kind: "package-cache", share: rnd.chance(0.2) ? rnd.between(0.02, 0.08) : 0 },
    { path: ".gradle/caches", kind: "package-cache", share: rnd.chance(0.15) ? rnd.between(0.03, 0.1) : 0 },
    { path: ".cache/yarn", kind: "package-cache", share: rnd.chance(0.2) ? rnd.between(0.01, 0.05) : 0 },
    { path: ".local/share/pnpm/store", kind: "package-cache", share: rnd.chance(0.2) ? rnd.between(0.02, 0.1) : 0 },
  ];
  const sum = weights.reduce((s, p) => s + p.share, 0) + 0.04; // the rest of the home's small files
  return {
    parts: weights.filter((p) => p.share > 0).map((p) => ({ ...p, share: p.share / sum })),
    nestedIde: rnd.chance(0.1),
    openFiles: rnd.chance(0.1) ? rnd.int(1, 3) : 0,
  };
}

/** The rest's folders with their bytes, in a home whose rest (what the walk counts besides the roots) is `rest`. */
export const restParts = (shape: HomeShape, rest: number) =>
  shape.parts.map((p) => ({ ...p, bytes: Math.floor((rest * p.share) / 4096) * 4096 }));

/** The file system's own share of Used that no walk sees (the journal and the like): a fixed part of the volume. */
export const metadataBytes = (volumeTotal: number) => Math.round(volumeTotal * 0.004);

/**
 * The report's home for a workspace whose roots are `roots` and whose Used holds `rest` bytes besides them
 * (`metadata` of it the file system's own).
 */
export function demoHome(
  shape: HomeShape,
  roots: readonly StorageRoot[],
  rest: { bytes: number; inodes: number; metadata: number },
): HomeUsage {
  const split = { agents: 0, modules: 0, other: 0 };
  // package caches are roots of their own (package-caches.ts) yet the rest's in the split, as the reporter has it
  for (const r of roots.filter((x) => x.kind !== "package-cache"))
    split[r.kind === "tool" ? "agents" : r.kind === "custom" || r.kind === "trash" ? "other" : "modules"] += r.bytes;
  const deleted = shape.openFiles ? Math.min(Math.round(rest.bytes * 0.02), 512 * 1024 ** 2) : 0;
  const homeRest = Math.max(0, rest.bytes - rest.metadata - deleted);
  const folders = new Map<string, number>();
  const kinds: Partial<Record<HomeKind, number>> = {};
  const kindOf = new Map<string, HomeKind>();
  for (const { bytes, ...p } of restParts(shape, homeRest)) {
    if (p.kind) {
      kinds[p.kind] = (kinds[p.kind] ?? 0) + bytes;
      kindOf.set(p.path, p.kind);
    }
    // a folder's figure is du's: it holds its children, so each ancestor up to three levels gets the bytes too
    const segs = p.path.split("/");
    for (let d = 1; d <= Math.min(3, segs.length); d++) {
      const at = segs.slice(0, d).join("/");
      folders.set(at, (folders.get(at) ?? 0) + bytes);
    }
  }
  const floor = (homeRest + split.agents + split.modules + split.other) * HOME_LARGEST_SHARE;
  const largest: HomeFolder[] = [...folders]
    .filter(([, b]) => b > floor)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, HOME_LARGEST)
    .map(([path, bytes]) => (kindOf.has(path) ? { path, bytes, kind: kindOf.get(path) } : { path, bytes }));
  const bytes = split.agents + split.modules + split.other + homeRest;
  const home: HomeUsage = {
    bytes,
    apparentBytes: Math.round(bytes * 0.93),
    files: roots.reduce((s, r) => s + r.files, 0) + Math.round(rest.inodes * 0.9),
    dirs: roots.reduce((s, r) => s + r.dirs, 0) + Math.round(rest.inodes * 0.1),
    roots: split,
    rest: homeRest,
    kinds,
    largest,
  };
  const ide = folders.get(".vscode-server");
  if (shape.nestedIde && ide)
    home.nestedCopies = [
      { path: ".vscode-server/data/User/.vscode-server", bytes: Math.round((ide * 0.6) / 4096) * 4096 },
    ];
  if (deleted) home.deletedOpen = { files: shape.openFiles, bytes: deleted };
  return home;
}
