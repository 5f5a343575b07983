// Old releases that the agents' own updaters install side by side and never remove: every release but the
// newest is a unit (a running one is still refused: the executor counts a running program's file as open).
import type { Recipe } from "../recipe-types";

export const INSTALL_RECIPES: Recipe[] = [
  {
    id: "claude-code-versions",
    agent: "claude-code",
    title: "Old Claude Code releases",
    description:
      "Release binaries in ~/.local/share/claude/versions/ (one file per release, 200–260 MB each), all but the newest.",
    roots: ["claude-code:versions"],
    unit: "file",
    glob: "*",
    defaultAction: "delete",
    defaultOlderThanDays: 1,
    keepNewestAtLeast: 1,
  },
  {
    id: "codex-releases",
    agent: "codex",
    title: "Old Codex releases",
    description:
      "Release folders of the standalone installer in packages/standalone/releases/ (about 250–400 MB each), all but the newest.",
    roots: ["codex:data"],
    unit: "dir",
    glob: "packages/standalone/releases/*",
    defaultAction: "delete",
    defaultOlderThanDays: 1,
    keepNewestAtLeast: 1,
  },
  {
    id: "copilot-versions",
    agent: "copilot",
    title: "Old Copilot CLI releases",
    description: "Release folders in pkg/universal/ (about 124 MB each), all but the newest.",
    roots: ["copilot:data"],
    unit: "dir",
    glob: "pkg/universal/*",
    defaultAction: "delete",
    defaultOlderThanDays: 1,
    keepNewestAtLeast: 1,
  },
];
