// A whole-home breakdown as a reporter sends it: a 19 GiB home on a 20 GiB volume (agents 5.7 GiB, a Go module
// cache, node_modules, a VS Code server nested in itself), for the ingest, shaping and page tests.
import type { HomeUsage } from "@/lib/report-format/home";
import { GiB, MiB } from "./reports";

export function homeUsage(over: Partial<HomeUsage> = {}): HomeUsage {
  return {
    bytes: 18 * GiB,
    apparentBytes: 17 * GiB,
    files: 812_000,
    dirs: 91_000,
    roots: { agents: 5 * GiB, modules: 512 * MiB, other: 512 * MiB },
    rest: 12 * GiB,
    kinds: { "package-cache": 4 * GiB, "project-deps": 3 * GiB, "ide-server": 2 * GiB, containers: 1 * GiB },
    largest: [
      { path: "go", bytes: 3 * GiB },
      { path: "go/pkg/mod", bytes: 3 * GiB, kind: "package-cache" },
      { path: "src/web/node_modules", bytes: 2 * GiB, kind: "project-deps" },
      { path: ".vscode-server", bytes: 2 * GiB, kind: "ide-server" },
      { path: ".npm", bytes: 1 * GiB, kind: "package-cache" },
    ],
    nestedCopies: [{ path: ".vscode-server/data/User/.vscode-server", bytes: 1536 * MiB }],
    mounts: [{ path: "scratch", fsType: "tmpfs", totalBytes: 2 * GiB, usedBytes: 300 * MiB }],
    deletedOpen: { files: 2, bytes: 256 * MiB },
    unreadable: 1,
    ...over,
  };
}
