// A folder's applicable rule tests compiled for its entries' names: the first test that passes gives the value.

import type { PathTest } from "@/lib/catalog/globs";
import type { Pair } from "./rule-pairs";

/**
 * The rules that apply in one folder, compiled: consecutive tests of one kind become one group (a Map for
 * exact names, suffixes indexed by their last character), keeping the first-match-wins order.
 */
export type Group<T> =
  | { kind: "any"; value: T }
  | { kind: "exact"; map: Map<string, T> }
  | { kind: "suffix"; byLast: Map<number, { s: string; value: T }[]> }
  | { kind: "regex"; re: PathTest; value: T };

/** The groups of `pairs` (those that apply in one folder, in rule order). */
export function compileGroups<T>(pairs: Pair<T>[]): Group<T>[] {
  const out: Group<T>[] = [];
  for (const p of pairs) {
    const last = out[out.length - 1];
    if (p.kind === "any") {
      out.push({ kind: "any", value: p.value });
      break; // nothing after a match-all can match first
    } else if (p.kind === "exact") {
      if (last?.kind === "exact") {
        if (!last.map.has(p.s)) last.map.set(p.s, p.value);
      } else out.push({ kind: "exact", map: new Map([[p.s, p.value]]) });
    } else if (p.kind === "suffix") {
      const g =
        last?.kind === "suffix"
          ? last
          : (out[out.push({ kind: "suffix", byLast: new Map() }) - 1] as Extract<Group<T>, { kind: "suffix" }>);
      const c = p.s.charCodeAt(p.s.length - 1);
      const list = g.byLast.get(c) ?? [];
      list.push({ s: p.s, value: p.value });
      g.byLast.set(c, list);
    } else out.push({ kind: "regex", re: p.re!, value: p.value });
  }
  return out;
}

/** What testName gives for a name no test but "any name" matches (the native scanner's sums). */
export function groupDefault<T>(groups: Group<T>[]): T | null {
  for (let i = 0; i < groups.length; i++) {
    const g = groups[i];
    if (g.kind === "any") return g.value;
  }
  return null;
}

/** The value of the first test in `groups` that `name` passes, or null. */
export function testName<T>(groups: Group<T>[], name: string): T | null {
  for (let i = 0; i < groups.length; i++) {
    const g = groups[i];
    switch (g.kind) {
      case "any":
        return g.value;
      case "exact": {
        const v = g.map.get(name);
        if (v !== undefined) return v;
        break;
      }
      case "suffix": {
        const list = g.byLast.get(name.charCodeAt(name.length - 1));
        if (list) for (let j = 0; j < list.length; j++) if (name.endsWith(list[j].s)) return list[j].value;
        break;
      }
      default:
        if (g.re.test(name)) return g.value;
    }
  }
  return null;
}
