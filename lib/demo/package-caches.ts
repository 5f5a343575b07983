// The demo's package caches as reporters 0.5 and later send them: each cache folder of a demo home (home.ts)
// is also a root of its own, one unit (the whole cache) untouched for some days, whose frees figure is its
// size but for pnpm's store, most of whose files are hard-linked into the projects' node_modules.
import { millisecondsInDay as DAY } from "date-fns/constants";
import { PACKAGE_CACHES, PACKAGE_CACHE_AGENT } from "@/lib/catalog/recipe-data/caches";
import { RECIPE_AGE_STEPS_DAYS } from "@/lib/catalog/recipes";
import type { HomeUsage } from "@/lib/report-format/home";
import type { StorageRoot } from "@/lib/report-format/schema";
import { restParts, type HomeShape } from "./home";

/** A number from 0 to 1 fixed by the text: a cache keeps its age from one report to the next. */
function fixedDraw(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return (h >>> 0) / 2 ** 32;
}

/** The cache roots of a home whose report's `home` is `home`, measured at `at` (ms). */
export function demoCacheRoots(shape: HomeShape, home: HomeUsage, workspaceId: string, at: number): StorageRoot[] {
  const roots: StorageRoot[] = [];
  for (const part of restParts(shape, home.rest)) {
    // ~/.npm holds the cache and npm's logs and npx's packages beside it
    const cache = PACKAGE_CACHES.find((c) => c.path === part.path || c.path.startsWith(part.path + "/"));
    if (!cache || part.bytes === 0) continue;
    const bytes = cache.path === part.path ? part.bytes : Math.floor((part.bytes * 0.9) / 4096) * 4096;
    const ageDays = 0.5 + 40 * fixedDraw(`${workspaceId} ${cache.key}`);
    const frees = cache.recipe === "pnpm-store" ? Math.floor((bytes * 0.3) / 4096) * 4096 : bytes;
    const byAge: [number, number][] = Array.from({ length: RECIPE_AGE_STEPS_DAYS.length + 1 }, () => [0, 0]);
    const step = RECIPE_AGE_STEPS_DAYS.findIndex((d) => ageDays <= d);
    byAge[step === -1 ? RECIPE_AGE_STEPS_DAYS.length : step] = [1, frees];
    const mtime = new Date(at - ageDays * DAY).toISOString();
    const files = Math.max(1, Math.round(bytes / 40_000));
    roots.push({
      key: cache.key,
      kind: "package-cache",
      agent: PACKAGE_CACHE_AGENT,
      path: cache.path,
      bytes,
      apparentBytes: Math.round(bytes * 0.95),
      files,
      dirs: Math.max(1, Math.round(files / 8)),
      oldestMtime: new Date(at - (ageDays + 200) * DAY).toISOString(),
      newestMtime: mtime,
      categories: { caches: { bytes, files } },
      recipes: { [cache.recipe]: { units: 1, bytes: frees, protectedUnits: 0, protectedBytes: 0, byAge } },
    });
  }
  return roots;
}
