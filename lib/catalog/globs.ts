// Globs as the catalog's rules write them, relative to the root they apply to: `*` matches within one path
// segment, `?` one character, `{a,b}` alternatives, `**` any number of segments (also none). A glob ending in
// `/**` also matches the folder itself. Plain functions, no Node imports: the reporter bundles them.
//
// Matched in linear time: a glob compiles to a small automaton, run over the path with every state it can be in
// at once (Thompson's construction), so a path of n characters costs at most n + 1 times the glob's size, whatever
// the glob. As regular expressions, `*a*a*a*a*a*a*a*a*b` against 32 characters took 71 ms and against 255 hours.
// A glob holds at most MAX_GLOB_WILDCARDS wildcards: the server refuses a custom rule with more, the reporter a
// job's and a protect file's.

import type { Category } from "@/lib/report-format/constants";
import type { CategoryRule } from "./agents";

/** The most wildcards a glob may hold; each `*`, `**` and `?` counts one. The catalog's own globs hold 4 at most. */
export const MAX_GLOB_WILDCARDS = 8;

/** How many wildcards `glob` holds (a run of `*` counts one). */
export const globWildcards = (glob: string): number => (glob.match(/\*+|\?/g) ?? []).length;

/** Why `glob` is refused, or null. */
export function globProblem(glob: string): string | null {
  const n = globWildcards(glob);
  return n > MAX_GLOB_WILDCARDS
    ? `glob ${glob} has ${n} wildcards; at most ${MAX_GLOB_WILDCARDS} (each *, ** and ? counts one)`
    : null;
}

/** A test of a path (what a RegExp offered here before). */
export type PathTest = { test(path: string): boolean };

// The automaton's instructions: consume one character (a given one, any but "/", any), or move without one.
const CHAR = 0;
const SEG = 1;
const ANY = 2;
const SPLIT = 3;
const JMP = 4;
const MATCH = 5;
const SLASH = 47;

/**
 * One glob, compiled. `tail`: "inside" also matches any path below it ("X" then "/…", as "X/**" does), "child"
 * any one segment below it ("X/name"; "" then means any one segment).
 */
export class Glob implements PathTest {
  private readonly op: number[] = [];
  private readonly a: number[] = [];
  private readonly b: number[] = [];
  /** The instructions as typed arrays, for the matching loop. */
  private readonly ops: Int32Array;
  private readonly args: Int32Array;
  /** For each state, the states that consume a character (or match) it reaches without one: reach[starts[i]…]. */
  private readonly starts: Int32Array;
  private readonly reach: Int32Array;
  private cur: Int32Array;
  private next: Int32Array;
  private readonly stack: Int32Array;
  private readonly seen: Int32Array;
  private generation = 0;

  constructor(glob: string, tail?: "inside" | "child") {
    this.compile(glob);
    if (tail === "inside") {
      const split = this.emit(SPLIT, this.op.length + 1);
      this.emit(CHAR, SLASH);
      this.loop(ANY);
      this.b[split] = this.op.length;
    } else if (tail === "child") {
      if (glob !== "") this.emit(CHAR, SLASH);
      this.emit(SEG);
      this.loop(SEG);
    }
    this.emit(MATCH);
    const size = this.op.length;
    this.ops = Int32Array.from(this.op);
    this.args = Int32Array.from(this.a);
    this.cur = new Int32Array(size);
    this.next = new Int32Array(size);
    this.stack = new Int32Array(2 * size + 2); // a state is pushed once per edge into it
    this.seen = new Int32Array(size);
    // The walks without a character, made once here rather than at every character of every path.
    const reach: number[] = [];
    this.starts = new Int32Array(size + 1);
    for (let pc = 0; pc < size; pc++) {
      this.starts[pc] = reach.length;
      this.generation++;
      const len = this.add(this.next, 0, pc);
      for (let k = 0; k < len; k++) reach.push(this.next[k]);
    }
    this.starts[size] = reach.length;
    this.reach = Int32Array.from(reach);
  }

  /** The automaton's states: a match of n characters visits at most (n + 1) × size of them. */
  get size(): number {
    return this.op.length;
  }

  /** Whether the whole of `path` matches. `count.steps` grows by the states visited. */
  test(path: string, count?: { steps: number }): boolean {
    // Each step marks the states it added with a new number; far from overflowing, the marks start again.
    if (this.generation > 2 ** 30 - path.length) {
      this.seen.fill(0);
      this.generation = 0;
    }
    const ops = this.ops;
    const args = this.args;
    const seen = this.seen;
    const { starts, reach } = this;
    let cur = this.cur;
    let next = this.next;
    let curLen = starts[1] - starts[0];
    cur.set(reach.subarray(0, curLen));
    if (count) count.steps += curLen;
    for (let i = 0; i < path.length && curLen > 0; i++) {
      const c = path.charCodeAt(i);
      const mark = ++this.generation;
      let nextLen = 0;
      for (let k = 0; k < curLen; k++) {
        const pc = cur[k];
        const op = ops[pc];
        if (op === CHAR ? args[pc] !== c : op === SEG ? c === SLASH : op !== ANY) continue;
        const to = pc + 1;
        const then = ops[to];
        if (then === SPLIT || then === JMP) {
          for (let j = starts[to]; j < starts[to + 1]; j++) {
            const s = reach[j];
            if (seen[s] === mark) continue;
            seen[s] = mark;
            next[nextLen++] = s;
            if (count) count.steps++;
          }
        } else if (seen[to] !== mark) {
          // the common case, a state that consumes a character (or the match): no walk needed
          seen[to] = mark;
          next[nextLen++] = to;
          if (count) count.steps++;
        }
      }
      const swap = cur;
      cur = next;
      next = swap;
      curLen = nextLen;
    }
    this.cur = cur;
    this.next = next;
    for (let k = 0; k < curLen; k++) if (ops[cur[k]] === MATCH) return true;
    return false;
  }

  /** Adds `pc` and every state it reaches without a character to `list` (once per step); its new length. */
  private add(list: Int32Array, len: number, pc: number, count?: { steps: number }): number {
    const mark = this.generation;
    let top = 0;
    this.stack[top++] = pc;
    while (top > 0) {
      const at = this.stack[--top];
      if (this.seen[at] === mark) continue;
      this.seen[at] = mark;
      if (count) count.steps++;
      const op = this.ops[at];
      if (op === JMP) this.stack[top++] = this.args[at];
      else if (op === SPLIT) {
        this.stack[top++] = this.b[at];
        this.stack[top++] = this.args[at];
      } else list[len++] = at;
    }
    return len;
  }

  private emit(op: number, a = 0, b = 0): number {
    this.op.push(op);
    this.a.push(a);
    this.b.push(b);
    return this.op.length - 1;
  }

  /** Zero or more of what `body` emits. */
  private repeat(body: () => void) {
    const split = this.emit(SPLIT, this.op.length + 1);
    body();
    this.emit(JMP, split);
    this.b[split] = this.op.length;
  }

  private loop(op: typeof SEG | typeof ANY) {
    this.repeat(() => this.emit(op));
  }

  private compile(glob: string) {
    for (let i = 0; i < glob.length; i++) {
      const c = glob[i];
      if (c === "*") {
        const double = glob[i + 1] === "*";
        const atStart = i === 0 || glob[i - 1] === "/";
        const atEnd = i + 2 === glob.length || glob[i + 2] === "/";
        if (double && atStart && atEnd && i + 2 === glob.length)
          this.loop(ANY); // trailing "**": anything
        else if (double && atStart && atEnd) {
          // "**/": zero or more whole segments
          this.repeat(() => {
            this.loop(SEG);
            this.emit(CHAR, SLASH);
          });
          i++; // the slash too
        } else this.loop(SEG);
        if (double) i++;
      } else if (c === "?") this.emit(SEG);
      else if (c === "{" && glob.indexOf("}", i) >= 0) {
        const close = glob.indexOf("}", i);
        this.alternatives(glob.slice(i + 1, close).split(","));
        i = close;
      } else this.emit(CHAR, glob.charCodeAt(i));
    }
  }

  /** `{a,b,c}`: each alternative compiled as a glob of its own. */
  private alternatives(alts: string[]) {
    const jumps: number[] = [];
    for (const alt of alts.slice(0, -1)) {
      const split = this.emit(SPLIT, this.op.length + 1);
      this.compile(alt);
      jumps.push(this.emit(JMP));
      this.b[split] = this.op.length;
    }
    this.compile(alts[alts.length - 1]);
    for (const j of jumps) this.a[j] = this.op.length;
  }
}

/** A glob's test as matchGlob applies it: one ending in "/**" also matches the folder itself. */
export const globTest = (glob: string): Glob =>
  glob.endsWith("/**") ? new Glob(glob.slice(0, -3), "inside") : new Glob(glob);

/** True when `path` (relative, "/"-separated) matches `glob`. A glob ending in "/**" also matches the folder. */
export function matchGlob(glob: string, path: string): boolean {
  return globTest(glob).test(path);
}

/** The category of a path under a root, by the given rules ("other" when none matches). */
export function categoryOf(rules: readonly CategoryRule[], path: string): Category {
  for (const r of rules) if (matchGlob(r.glob, path)) return r.category;
  return "other";
}
