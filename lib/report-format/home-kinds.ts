// The kinds of folders that fill a home besides the agents: named in the report's whole-home breakdown so an
// admin sees a package cache or a container store for what it is. Plain data: the reporter bundles it.

export const HOME_KINDS = ["package-cache", "project-deps", "containers", "ide-server"] as const;
export type HomeKind = (typeof HOME_KINDS)[number];

/** At most this many of the rest's folders are listed (each over 1 % of the home, at most three levels deep). */
export const HOME_LARGEST = 20;
export const HOME_LARGEST_SHARE = 0.01;
export const HOME_LARGEST_DEPTH = 3;

/**
 * Folders of a known kind at a fixed place, relative to home. Only the caches themselves: `~/.m2/settings.xml`
 * holds credentials and `~/.docker` is the client's configuration with registry credentials, so neither is
 * here. pnpm's store (`.local/share/pnpm/store`) lies four levels deep, below the breakdown's three: its folder
 * `.local/share/pnpm` stands for it.
 */
export const HOME_KIND_PATHS: Readonly<Record<string, HomeKind>> = {
  ".npm": "package-cache",
  ".cache/pip": "package-cache",
  ".cache/go-build": "package-cache",
  "go/pkg/mod": "package-cache",
  ".cargo/registry": "package-cache",
  ".m2/repository": "package-cache",
  ".gradle/caches": "package-cache",
  ".cache/yarn": "package-cache",
  ".local/share/pnpm": "package-cache",
  ".local/share/containers": "containers",
  ".local/share/docker": "containers",
  ".vscode-server": "ide-server",
  ".cursor-server": "ide-server",
  ".windsurf-server": "ide-server",
  ".cache/JetBrains": "ide-server",
  ".local/share/JetBrains": "ide-server",
};

/** Project dependencies, wherever they lie: a folder so named and everything in it (the outermost counts). */
export const PROJECT_DEP_NAMES: readonly string[] = ["node_modules", ".venv", "target"];

/**
 * Folders that must not hold a copy of their own name: an IDE server nested inside itself (a Coder user found
 * `.vscode-server` five levels inside itself, 7.4 GB of a 9.8 GB disk) is a finding.
 */
export const SELF_NESTING_NAMES: readonly string[] = [".vscode-server", ".cursor-server", ".windsurf-server"];

/** The kind of the folder `rel` (relative to home): a fixed place, or a project dependency folder anywhere. */
export function homeKindOf(rel: string): HomeKind | null {
  const fixed = HOME_KIND_PATHS[rel];
  if (fixed) return fixed;
  const name = rel.slice(rel.lastIndexOf("/") + 1);
  return PROJECT_DEP_NAMES.includes(name) ? "project-deps" : null;
}
