// Compiled category and session rules, fast enough to run on every entry of a large tree: a rule is split
// into a test on the parent folder (evaluated once per folder and cached) and a test on the entry's name
// (rule-pairs.ts), the tests that apply in a folder compiled once per distinct set (rule-sets.ts) into groups
// that testName runs on each name (rule-groups.ts).

import type { CategoryRule, SessionRule } from "@/lib/catalog/agents";
import { Glob, type PathTest } from "@/lib/catalog/globs";
import type { Category } from "@/lib/report-format/constants";
import type { NameNeed, Needs } from "./native-sums";
import type { Group } from "./rule-groups";
import { pairsOf, splitLast } from "./rule-pairs";
import { RuleSets } from "./rule-sets";

export class CategoryMatcher {
  private sets: RuleSets<Category>;
  constructor(rules: readonly CategoryRule[]) {
    this.sets = new RuleSets(rules.flatMap((r) => pairsOf(r.glob, r.category)));
  }
  /**
   * The compiled tests for the entries of folder `parent` (relative to the root, `depth` segments; use with
   * testName; no match is "other").
   */
  groupsFor(parent: string, depth: number): Group<Category>[] {
    return this.sets.compute(parent, depth);
  }
  /** A category needs no name where it is the folder's default (groupDefault). */
  needs(): Needs {
    return this.sets.needs(false, "a");
  }
  /** Whether the folder `name`, `depth` segments deep, has its parent's groups. */
  inherits(depth: number, name: string): boolean {
    return this.sets.inherits(depth, name);
  }
}

/** Entries matching one glob, tested like the category rules (folder part once per folder, then the name). */
export class GlobMatcher {
  private sets: RuleSets<true>;
  constructor(glob: string) {
    // a lone "**" is everything at any depth (pairsOf reads "X/**" forms only)
    this.sets = new RuleSets(pairsOf(glob === "**" ? "**/*" : glob, true as const));
  }
  /** The tests for the entries of folder `parent` (`depth` segments), or null when no entry there can match. */
  groupsFor(parent: string, depth: number): Group<true>[] | null {
    const g = this.sets.compute(parent, depth);
    return g.length ? g : null;
  }
  needs(all: boolean, kind: NameNeed["kind"]): Needs {
    return this.sets.needs(all, kind);
  }
  inherits(depth: number, name: string): boolean {
    return this.sets.inherits(depth, name);
  }
}

export type SessionUnitKind = SessionRule["unit"];

/** A session unit that is a folder at a fixed depth. */
export type FolderUnit = {
  depth: number;
  re: PathTest;
  kind: "file+dir" | "dir";
};

/** Session rules: which files are sessions, and at which depth session folders sit. */
export class SessionMatcher {
  private fileSets: RuleSets<SessionUnitKind>;
  /** Fixed-depth folder units: depth (segments) and the glob test on the folder's relative path. */
  readonly folderUnits: FolderUnit[] = [];
  readonly empty: boolean;

  constructor(rules: readonly SessionRule[]) {
    this.empty = rules.length === 0;
    this.fileSets = new RuleSets(rules.filter((r) => r.unit !== "dir").flatMap((r) => pairsOf(r.glob, r.unit)));
    for (const r of rules) {
      if (r.unit === "file") continue;
      if (r.glob.includes("**")) throw new Error(`session rule ${r.glob}: "${r.unit}" units need a fixed depth`);
      const depth = r.glob.split("/").length;
      if (r.unit === "dir") this.folderUnits.push({ depth, re: new Glob(r.glob), kind: "dir" });
      else {
        // the companion folder sits beside the file: same parent, any name
        const [dir] = splitLast(r.glob);
        this.folderUnits.push({ depth, re: new Glob(dir, "child"), kind: "file+dir" });
      }
    }
  }

  /** The compiled session-file tests for the entries of folder `parent` (`depth` segments; use with testName). */
  groupsFor(parent: string, depth: number): Group<SessionUnitKind>[] {
    return this.fileSets.compute(parent, depth);
  }

  /** Whether the folder `name`, `depth` segments deep, has its parent's session-file groups. */
  inherits(depth: number, name: string): boolean {
    return this.fileSets.inherits(depth, name);
  }

  /** A session file is listed by its path, and a unit folder sized by its own: both need every name. */
  needs(): Needs {
    const out = this.fileSets.needs(true, "f");
    for (const fu of this.folderUnits) {
      out.names.push({ depth: fu.depth - 1, kind: "d", pre: "", suf: "", has: "" });
      out.foldBelow = Math.max(out.foldBelow, fu.depth);
    }
    return out;
  }
}
