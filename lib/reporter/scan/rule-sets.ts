// Which of a matcher's rule tests apply in a folder, and those tests compiled once per distinct set.

import type { NameNeed, Needs } from "./native-sums";
import { compileGroups, type Group } from "./rule-groups";
import { testDir, type Pair } from "./rule-pairs";

/**
 * The rules that can apply in a folder, compiled: each distinct set once (folders mostly share the same
 * applicable rules). A pair whose folder test has a fixed depth is tested only in folders of that depth: most
 * folders are settled without running a regex. Sets are found by which pairs apply: 30 pairs to a small
 * integer (larger numbers would be number objects, allocated per folder), two of them for up to 60 pairs, a
 * string of 0/1 beyond.
 */
export class RuleSets<T> {
  private readonly compiled = new Map<number, Map<number, Group<T>[]>>();
  private readonly compiledWide = new Map<string, Group<T>[]>();
  /** Per pair, the depth of the folders its folder test can match (segments), or -1 for any depth. */
  private readonly depths: number[];
  /**
   * A folder deeper than `below`, not named one of `specials`, has its parent's rules: a folder differs from
   * its parent where a test of fixed depth applies to it or to its parent, where it is the X of an `X/**`
   * test, or where it is named as a segment test names (Infinity: a regex on any depth).
   */
  readonly below: number;
  readonly specials: ReadonlySet<string>;
  constructor(private readonly pairs: Pair<T>[]) {
    this.depths = pairs.map((p) => p.dir.depth);
    let below = 0;
    const specials = new Set<string>();
    for (const { dir: d } of pairs) {
      if (d.depth >= 0) below = Math.max(below, d.depth + 1);
      else if (d.base >= 0) below = Math.max(below, d.base);
      else if (d.kind === "segment") for (const seg of d.segs) specials.add(seg);
      else if (d.kind === "regex") below = Infinity;
    }
    this.below = below;
    this.specials = specials;
  }

  /** Whether the folder `name`, `depth` segments deep, has its parent's rules (`below`). */
  inherits(depth: number, name: string): boolean {
    return depth > this.below && (this.specials.size === 0 || !this.specials.has(name));
  }

  /** The compiled tests for the entries of folder `parent` (relative to the root, `depth` segments). */
  compute(parent: string, depth: number): Group<T>[] {
    const n = this.pairs.length;
    if (n > 60) {
      let mask = "";
      for (let i = 0; i < n; i++) mask += this.applies(i, parent, depth) ? "1" : "0";
      let list = this.compiledWide.get(mask);
      if (!list) this.compiledWide.set(mask, (list = compileGroups(this.pairs.filter((_, i) => mask[i] === "1"))));
      return list;
    }
    const lo = this.bits(parent, depth, 0, Math.min(n, 30));
    const hi = n > 30 ? this.bits(parent, depth, 30, n) : 0;
    let byLo = this.compiled.get(hi);
    if (!byLo) this.compiled.set(hi, (byLo = new Map()));
    let list = byLo.get(lo);
    if (!list) {
      const on = (i: number) => ((i < 30 ? lo >> i : hi >> (i - 30)) & 1) === 1;
      byLo.set(lo, (list = compileGroups(this.pairs.filter((_, i) => on(i)))));
    }
    return list;
  }

  /** Which of the pairs from..to (at most 30) apply in `parent`, as bits. */
  private bits(parent: string, depth: number, from: number, to: number): number {
    let m = 0;
    for (let i = from; i < to; i++) if (this.applies(i, parent, depth)) m |= 1 << (i - from);
    return m;
  }

  /**
   * What these rules need of the native scanner's sums: the names that may match (`all`: also those matched
   * by any name, where a match needs the entry's own path), and how deep folders may differ in the rules that
   * apply to them.
   */
  needs(all: boolean, kind: NameNeed["kind"]): Needs {
    const names: NameNeed[] = [];
    for (const p of this.pairs)
      if (p.kind !== "any" || all) names.push({ depth: p.dir.depth, kind, pre: p.pre, suf: p.suf, has: "" });
    return { names, foldBelow: this.below, specials: [...this.specials] };
  }

  private applies(i: number, parent: string, depth: number): boolean {
    const d = this.depths[i];
    return (d < 0 || d === depth) && testDir(this.pairs[i].dir, parent);
  }
}
