// The agents' folders besides their data that the demo fleet also fills: Claude Code's MCP server logs and its
// releases (each 200–260 MB, never removed), so the recipes for them have something to preview.
import type { Random } from "./random";
import { MiB, type RootProfile } from "./roots";

export function claudeExtras(rnd: Random, heavy: number): RootProfile[] {
  const roots: RootProfile[] = [];
  if (rnd.chance(0.4))
    roots.push({
      key: "claude-code:mcp-logs",
      kind: "tool",
      agent: "claude-code",
      path: ".cache/claude-cli-nodejs",
      dailyBytes: 15 * MiB * heavy,
      fileBytes: 8 * MiB,
      mix: { logs: 1 },
    });
  if (rnd.chance(0.6))
    roots.push({
      key: "claude-code:versions",
      kind: "tool",
      agent: "claude-code",
      path: ".local/share/claude/versions",
      // a release of about 230 MB every few days, one file each
      dailyBytes: 60 * MiB,
      fileBytes: 230 * MiB,
      mix: { caches: 1 },
    });
  return roots;
}
