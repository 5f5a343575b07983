// The shape of a cleanup recipe, apart from the recipes themselves so that the files of recipe-data/ can name it
// without importing the list they are part of. Types only.
import type { RecipeId } from "@/lib/report-format/recipe-ids";
import type { SessionParts } from "./recipe-data/session-parts";

/**
 * What one unit is, acted on whole or not at all:
 * - "file": one file matching `glob`;
 * - "file+dir": a file matching `glob` and the folder beside it named like the file without its extension
 *   (a Claude Code session: `<uuid>.jsonl` and `<uuid>/`);
 * - "dir": a folder matching `glob` with everything inside it;
 * - "file+parts": a file matching `glob` and the entries named by its session's id elsewhere in its project
 *   folder (`parts`: a Gemini CLI session's chat, log, tool outputs and subagent folder).
 */
export type UnitShape = "file" | "file+dir" | "dir" | "file+parts";

export type Recipe = {
  id: RecipeId;
  agent: string;
  title: string;
  description: string;
  /**
   * The roots it acts on: report root keys, where `*` matches one key segment (module roots are
   * `<namespace>/<module>`, script data `script-data:<uuid>`).
   */
  roots: string[];
  unit: UnitShape;
  glob: string;
  /** Where a "file+parts" unit's other parts are. */
  parts?: SessionParts;
  /**
   * The reporter release from which reports count the units as they are now, and what earlier ones counted:
   * their figure is not what a job of the newer reporter would act on, so previews and runs leave such
   * workspaces out until their reporter is updated.
   */
  unitsSince?: { version: string; earlier: string };
  /** Conversations go to the trash first; logs and debug output are deleted. */
  defaultAction: "trash" | "delete";
  /**
   * Never to the trash (a run asking for it is refused): a package cache in the trash would free nothing until
   * the trash expires, and the tool fills it again meanwhile.
   */
  deleteOnly?: boolean;
  defaultOlderThanDays: number;
  /** Only roots flagged orphaned in the report (coder-script-data folders but the current one). */
  orphanedOnly?: boolean;
  /** The newest units a job always keeps, whatever its parameters say (old releases: never the newest). */
  keepNewestAtLeast?: number;
  /** Programs (process names) while any of which runs nothing is acted on: they use the units unopened. */
  notWhileRunning?: string[];
};
