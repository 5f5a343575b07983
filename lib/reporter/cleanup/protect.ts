// The owner's protect file (~/.coder-modules/coder/storage-reporter/protect): one glob per line, relative to
// home, `#` starts a comment. A unit is protected when a glob matches one of its top paths or a folder that
// holds it (so `.claude/projects/-work-keep` protects every session of that project). Every run skips it,
// and the report counts it apart.

import fs from "node:fs";
import path from "node:path";
import { globProblem, globTest, type PathTest } from "@/lib/catalog/globs";
import { PROTECT_FILE } from "@/lib/catalog/recipes";

export class ProtectList {
  private readonly res: PathTest[];
  /**
   * Why a glob of the file was refused (more wildcards than lib/catalog/globs.ts allows), or null. The owner
   * asked to protect something and what cannot be read as asked must not be deleted: while one is refused, the
   * list covers every path.
   */
  readonly refused: string | null;
  constructor(readonly globs: readonly string[]) {
    this.refused = globs.map(globProblem).find((p) => p !== null) ?? null;
    this.res = this.refused === null ? globs.map(globTest) : [];
  }

  get empty(): boolean {
    return this.res.length === 0 && this.refused === null;
  }

  /** Whether any of the paths (relative to home), or a folder holding it, is protected. */
  covers(paths: readonly string[]): boolean {
    if (this.refused !== null) return paths.length > 0;
    if (this.res.length === 0) return false;
    for (const p of paths) {
      for (let at = p.length; at > 0; at = p.lastIndexOf("/", at - 1)) {
        const prefix = p.slice(0, at);
        for (const re of this.res) if (re.test(prefix)) return true;
        if (at === 0) break;
      }
    }
    return false;
  }
}

/** Parses the protect file's text: globs, without comments, blank lines, leading "./" or "~/". */
export function parseProtect(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.split("\n")) {
    const line = raw.replace(/(^|\s)#.*$/, "").trim();
    if (!line) continue;
    out.push(line.replace(/^(\.\/|~\/)+/, "").replace(/\/+$/, ""));
  }
  return out.filter((g) => g !== "");
}

/** The home folder's protect list (empty when the file is absent or unreadable). */
export function readProtect(home: string): ProtectList {
  try {
    return new ProtectList(parseProtect(fs.readFileSync(path.join(home, PROTECT_FILE), "utf8")));
  } catch {
    return new ProtectList([]);
  }
}

/**
 * The protect list with the owner's Keeps a job carries (paths relative to home, set on the dashboard): a kept
 * path protects itself and everything under it, as a protect file's line does. The protect file stays as it is.
 */
export function withKept(protect: ProtectList, kept: readonly string[] | undefined): ProtectList {
  return kept?.length ? new ProtectList([...protect.globs, ...kept]) : protect;
}
