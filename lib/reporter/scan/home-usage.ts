// The whole home, measured in the same walk as the roots: the home is one more root, the last, with every
// other root inside it left out (nested roots are), so that the roots on the home's device and this rest add
// up to `du -sxB1 ~` (one device, each hard link once, in the first root that holds it).

import fs from "node:fs";
import {
  HOME_KIND_PATHS,
  HOME_LARGEST,
  HOME_LARGEST_DEPTH,
  HOME_LARGEST_SHARE,
  homeKindOf,
  type HomeKind,
} from "@/lib/report-format/home-kinds";
import { OTHER_AGENT, categoryRulesFor } from "@/lib/catalog/agents";
import type { RootKind } from "@/lib/report-format/constants";
import type { HomeFolder, HomeUsage } from "@/lib/report-format/home";
import { LIMITS } from "@/lib/report-format/constants";
import { withWirePath } from "@/lib/report-format/path-encoding";
import type { StorageRoot } from "@/lib/report-format/schema";
import type { HomeUnseen } from "./home-unseen";
import type { RootTally } from "./root-tally";
import { within } from "./paths";
import type { RootSpec } from "./roots";

/** The whole home as a root (never in the report's roots): no recipe applies to it. */
export function wholeHomeSpec(home: string): RootSpec {
  return {
    key: "home",
    kind: "custom",
    agent: OTHER_AGENT,
    abs: home,
    rel: "",
    wholeHome: true,
    categoryRules: categoryRulesFor("custom", OTHER_AGENT),
    sessionRules: [],
    targets: [],
  };
}

const MODULE_KINDS: ReadonlySet<RootKind> = new Set(["module", "legacy", "script-data"]);

function deviceOf(abs: string): number | null {
  try {
    return fs.lstatSync(abs).dev;
  } catch {
    return null;
  }
}

/** Adds `bytes` to the sizes of the folder `rel` (relative to home) and of its parents, to the breakdown's depth. */
function addToFolders(sizes: Map<string, number>, rel: string, bytes: number) {
  const segs = rel.split("/");
  for (let d = 1; d <= Math.min(HOME_LARGEST_DEPTH, segs.length); d++) {
    const at = segs.slice(0, d).join("/");
    sizes.set(at, (sizes.get(at) ?? 0) + bytes);
  }
}

/**
 * The report's `home` from the home's tally and the roots (in report order) whose specs are `specs`. Package
 * caches are roots only so that their cleanup acts inside a root: here they stay part of the rest, of the
 * package-cache kind and of their folders' sizes, as when the home's walk measured them. `unseen`: what the walk
 * cannot see (home-unseen.ts).
 */
export function homeUsage(
  home: string,
  tally: RootTally,
  roots: readonly StorageRoot[],
  specs: readonly RootSpec[],
  unseen: HomeUnseen,
) {
  const dev = deviceOf(home);
  const byKey = new Map(specs.map((s) => [s.key, s]));
  const split = { agents: 0, modules: 0, other: 0 };
  const sizes = new Map([...tally.dirSizes].map(([path, d]) => [path, d.bytes]));
  let rest = tally.bytes;
  let apparentBytes = tally.apparent;
  let files = tally.files;
  let dirs = tally.dirs;
  // caches a variable moved away from every folder of a known kind: counted as the kind by their roots
  let movedCaches = 0;
  for (const r of roots) {
    const spec = byKey.get(r.key);
    // a root on another device (a mount inside the home) is not in du -x's figure: the mounts list shows it
    if (!spec || deviceOf(spec.abs) !== dev) continue;
    if (r.kind === "package-cache") {
      rest += r.bytes;
      addToFolders(sizes, spec.rel, r.bytes);
      if (!Object.keys(HOME_KIND_PATHS).some((k) => within(spec.rel, k))) movedCaches += r.bytes;
    } else split[r.kind === "tool" ? "agents" : MODULE_KINDS.has(r.kind) ? "modules" : "other"] += r.bytes;
    apparentBytes += r.apparentBytes;
    files += r.files;
    dirs += r.dirs;
  }
  const bytes = split.agents + split.modules + split.other + rest;
  const kinds: Partial<Record<HomeKind, number>> = {};
  for (const [path, kind] of Object.entries(HOME_KIND_PATHS)) {
    const d = sizes.get(path);
    if (d) kinds[kind] = (kinds[kind] ?? 0) + d;
  }
  if (movedCaches > 0) kinds["package-cache"] = (kinds["package-cache"] ?? 0) + movedCaches;
  if (tally.home!.deps.bytes > 0) kinds["project-deps"] = tally.home!.deps.bytes;
  const floor = bytes * HOME_LARGEST_SHARE;
  const largest: HomeFolder[] = [...sizes]
    .filter(([, d]) => d > floor)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, HOME_LARGEST)
    .map(([path, d]) => {
      const kind = homeKindOf(path);
      return withWirePath(kind ? { path, bytes: d, kind } : { path, bytes: d });
    });
  const usage: HomeUsage = {
    bytes,
    apparentBytes,
    files,
    dirs,
    roots: split,
    rest,
    kinds,
    largest,
  };
  const copies = [...tally.home!.copies]
    .filter(([, c]) => c.bytes > 0)
    .sort((a, b) => b[1].bytes - a[1].bytes)
    .slice(0, LIMITS.largestEntries)
    .map(([path, c]) => withWirePath({ path, bytes: c.bytes }));
  if (copies.length) usage.nestedCopies = copies;
  const mounts = unseen.mounts.slice(0, LIMITS.largestEntries);
  if (mounts.length) usage.mounts = mounts;
  if (unseen.hiddenUnderMounts !== null) usage.hiddenUnderMounts = unseen.hiddenUnderMounts;
  if (unseen.deletedOpen) usage.deletedOpen = unseen.deletedOpen;
  if (tally.unreadable) usage.unreadable = tally.unreadable;
  return usage;
}
