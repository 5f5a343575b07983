// Package caches: folders the tools fill with what they downloaded or built and fill again when it is gone.
// Each is a root of its own (kind "package-cache", owner PACKAGE_CACHE_AGENT, never an agent's), found at its
// fixed place in the home, and one recipe deletes it whole, as the tool's own clean command does (`go clean
// -modcache`, `npm cache clean --force`, `pip cache purge`). Only the caches themselves: ~/.npmrc,
// ~/.m2/settings.xml (repository credentials), ~/.cargo/credentials.toml and ~/.docker lie outside every one.
// Plain data: the reporter bundles it.
import type { Recipe } from "../recipes";

/** The owner reports give the cache roots: a fleet chart series of its own, never counted as an agent's. */
export const PACKAGE_CACHE_AGENT = "package-cache";

export type PackageCache = {
  /** The root's key: `package-cache:<name>`. */
  key: string;
  /** Relative to home. */
  path: string;
  recipe: (typeof CACHE_RECIPE_IDS)[number];
  title: string;
  /** What rebuilds it, for the recipe's description. */
  refill: string;
};

export const CACHE_RECIPE_IDS = [
  "npm-cache",
  "pip-cache",
  "go-build-cache",
  "go-module-cache",
  "cargo-registry",
  "maven-repository",
  "gradle-caches",
  "yarn-cache",
  "pnpm-store",
] as const;

/**
 * npm: only `_cacache` (the downloaded tarballs and their index). `_logs` holds npm's debug logs, which npm
 * itself keeps to its last ten; `_npx` holds the packages npx runs, which may be running.
 */
export const PACKAGE_CACHES: readonly PackageCache[] = [
  {
    key: "package-cache:npm",
    path: ".npm/_cacache",
    recipe: "npm-cache",
    title: "npm cache",
    refill: "npm downloads the packages again at the next install",
  },
  {
    key: "package-cache:pip",
    path: ".cache/pip",
    recipe: "pip-cache",
    title: "pip cache",
    refill: "pip downloads and builds the wheels again",
  },
  {
    key: "package-cache:go-build",
    path: ".cache/go-build",
    recipe: "go-build-cache",
    title: "Go build cache",
    refill: "the next go build compiles again",
  },
  {
    key: "package-cache:go-mod",
    path: "go/pkg/mod",
    recipe: "go-module-cache",
    title: "Go module cache",
    refill: "go downloads the modules again; its folders are read-only (0555) and are made writable first",
  },
  {
    key: "package-cache:cargo",
    path: ".cargo/registry",
    recipe: "cargo-registry",
    title: "Cargo registry",
    refill: "cargo fetches the index and crates again",
  },
  {
    key: "package-cache:maven",
    path: ".m2/repository",
    recipe: "maven-repository",
    title: "Maven repository",
    refill:
      "Maven downloads the artifacts again; artifacts put there by `mvn install` come back when their project is built again",
  },
  {
    key: "package-cache:gradle",
    path: ".gradle/caches",
    recipe: "gradle-caches",
    title: "Gradle caches",
    refill: "Gradle downloads and transforms again; while a Gradle daemon holds its files open nothing goes",
  },
  {
    key: "package-cache:yarn",
    path: ".cache/yarn",
    recipe: "yarn-cache",
    title: "Yarn cache",
    refill: "yarn downloads the packages again",
  },
  {
    key: "package-cache:pnpm",
    path: ".local/share/pnpm/store",
    recipe: "pnpm-store",
    title: "pnpm store",
    refill:
      "pnpm downloads again; its files are hard-linked into the projects' node_modules, so only the files no project links free space",
  },
];

export const CACHE_RECIPES: Recipe[] = PACKAGE_CACHES.map((c) => ({
  id: c.recipe,
  agent: PACKAGE_CACHE_AGENT,
  title: c.title,
  description: `The whole ~/${c.path}/, deleted for good (never moved to the trash); ${c.refill}.`,
  roots: [c.key],
  unit: "dir",
  glob: ".",
  defaultAction: "delete",
  deleteOnly: true,
  // untouched for a day: a build writing into it now keeps it (and the minimum age keeps it as well)
  defaultOlderThanDays: 1,
}));
