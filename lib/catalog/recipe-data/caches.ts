// Package caches: folders the tools fill with what they downloaded or built and fill again when it is gone.
// Each is a root of its own (kind "package-cache", owner PACKAGE_CACHE_AGENT, never an agent's), found where the
// tool's own environment variables put it (a template may set GOMODCACHE or CARGO_HOME for every workspace) or at
// its fixed place in the home, and one recipe deletes it whole, as the tool's own clean command does (`go clean
// -modcache`, `npm cache clean --force`, `pip cache purge`). Only the caches themselves: ~/.npmrc,
// ~/.m2/settings.xml (repository credentials), ~/.cargo/credentials.toml and ~/.docker lie outside every one.
// Plain data: the reporter bundles it.
import type { CACHE_RECIPE_IDS } from "@/lib/report-format/recipe-ids";
import type { Recipe } from "../recipe-types";

/** The owner reports give the cache roots: a fleet chart series of its own, never counted as an agent's. */
export const PACKAGE_CACHE_AGENT = "package-cache";

export type PackageCache = {
  /** The root's key: `package-cache:<name>`. */
  key: string;
  /** Relative to home: where the tool keeps it when no variable of `movedBy` says otherwise. */
  path: string;
  /**
   * The environment variables that move it, in the tool's own order of precedence: the folder a variable names
   * (absolute, or relative to home), or `subpath` inside it; `list`: a ':'-separated list whose first entry
   * counts (GOPATH).
   */
  movedBy?: readonly { env: string; subpath?: string; list?: boolean }[];
  recipe: (typeof CACHE_RECIPE_IDS)[number];
  title: string;
  /** What rebuilds it, for the recipe's description. */
  refill: string;
};

/**
 * Folders of the home that no cache a variable moves may be or hold (relative to home): its recipe deletes the
 * cache whole, and these hold configuration, credentials or every other program's data (PIP_CACHE_DIR=~/.config
 * would make ~/.config "the pip cache").
 */
export const NEVER_A_CACHE: readonly string[] = [
  ".cache",
  ".config",
  ".local",
  ".local/share",
  ".local/state",
  ".ssh",
  ".gnupg",
  ".docker",
  ".kube",
  ".aws",
  ".coder",
  ".coder-modules",
];

/**
 * npm: only `_cacache` (the downloaded tarballs and their index). `_logs` holds npm's debug logs, which npm
 * itself keeps to its last ten; `_npx` holds the packages npx runs, which may be running.
 */
export const PACKAGE_CACHES: readonly PackageCache[] = [
  {
    key: "package-cache:npm",
    path: ".npm/_cacache",
    // npm reads its configuration from npm_config_* variables, in either case
    movedBy: [
      { env: "npm_config_cache", subpath: "_cacache" },
      { env: "NPM_CONFIG_CACHE", subpath: "_cacache" },
    ],
    recipe: "npm-cache",
    title: "npm cache",
    refill: "npm downloads the packages again at the next install",
  },
  {
    key: "package-cache:pip",
    path: ".cache/pip",
    movedBy: [{ env: "PIP_CACHE_DIR" }, { env: "XDG_CACHE_HOME", subpath: "pip" }],
    recipe: "pip-cache",
    title: "pip cache",
    refill: "pip downloads and builds the wheels again",
  },
  {
    key: "package-cache:go-build",
    path: ".cache/go-build",
    movedBy: [{ env: "GOCACHE" }, { env: "XDG_CACHE_HOME", subpath: "go-build" }],
    recipe: "go-build-cache",
    title: "Go build cache",
    refill: "the next go build compiles again",
  },
  {
    key: "package-cache:go-mod",
    path: "go/pkg/mod",
    movedBy: [{ env: "GOMODCACHE" }, { env: "GOPATH", subpath: "pkg/mod", list: true }],
    recipe: "go-module-cache",
    title: "Go module cache",
    refill: "go downloads the modules again; its folders are read-only (0555) and are made writable first",
  },
  {
    key: "package-cache:cargo",
    path: ".cargo/registry",
    movedBy: [{ env: "CARGO_HOME", subpath: "registry" }],
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
    movedBy: [{ env: "GRADLE_USER_HOME", subpath: "caches" }],
    recipe: "gradle-caches",
    title: "Gradle caches",
    refill: "Gradle downloads and transforms again; while a Gradle daemon holds its files open nothing goes",
  },
  {
    key: "package-cache:yarn",
    path: ".cache/yarn",
    movedBy: [{ env: "YARN_CACHE_FOLDER" }, { env: "XDG_CACHE_HOME", subpath: "yarn" }],
    recipe: "yarn-cache",
    title: "Yarn cache",
    refill: "yarn downloads the packages again",
  },
  {
    key: "package-cache:pnpm",
    path: ".local/share/pnpm/store",
    movedBy: [
      { env: "PNPM_HOME", subpath: "store" },
      { env: "XDG_DATA_HOME", subpath: "pnpm/store" },
    ],
    recipe: "pnpm-store",
    title: "pnpm store",
    refill:
      "pnpm downloads again; its files are hard-linked into the projects' node_modules, so only the files no project links free space",
  },
];

/** " (or where GOMODCACHE or GOPATH puts it)": the variables that move a cache, for its recipe's description. */
function movedText(c: PackageCache): string {
  const names = [...new Set((c.movedBy ?? []).map((m) => m.env))];
  if (names.length === 0) return "";
  const listed = names.length === 1 ? names[0] : `${names.slice(0, -1).join(", ")} or ${names.at(-1)}`;
  return ` (or where ${listed} puts it)`;
}

export const CACHE_RECIPES: Recipe[] = PACKAGE_CACHES.map((c) => ({
  id: c.recipe,
  agent: PACKAGE_CACHE_AGENT,
  title: c.title,
  description: `The whole ~/${c.path}/${movedText(c)}, deleted for good (never moved to the trash); ${c.refill}.`,
  roots: [c.key],
  unit: "dir",
  glob: ".",
  defaultAction: "delete",
  deleteOnly: true,
  // untouched for a day: a build writing into it now keeps it (and the minimum age keeps it as well)
  defaultOlderThanDays: 1,
}));
