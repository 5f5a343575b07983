// Globs as the catalog's rules write them, relative to the root they apply to: `*` matches within one path
// segment, `?` one character, `{a,b}` alternatives, `**` any number of segments (also none). A glob ending in
// `/**` also matches the folder itself. Plain functions, no Node imports: the reporter bundles them.

import type { Category } from "@/lib/report-format/constants";
import type { CategoryRule } from "./agents";

/** Translates one glob into a regular expression source (no anchors). */
export function globSource(glob: string): string {
  let out = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === "*") {
      if (glob[i + 1] === "*") {
        const atStart = i === 0 || glob[i - 1] === "/";
        const atEnd = i + 2 === glob.length || glob[i + 2] === "/";
        if (atStart && atEnd) {
          if (i + 2 === glob.length) {
            // trailing "**": anything, including nothing
            out += ".*";
          } else {
            // "**/": zero or more whole segments
            out += "(?:[^/]*/)*";
            i++; // skip the slash too
          }
          i++;
          continue;
        }
        out += "[^/]*";
        i++;
        continue;
      }
      out += "[^/]*";
    } else if (c === "?") out += "[^/]";
    else if (c === "{") {
      const close = glob.indexOf("}", i);
      if (close < 0) out += "\\{";
      else {
        out +=
          "(?:" +
          glob
            .slice(i + 1, close)
            .split(",")
            .map((alt) => globSource(alt))
            .join("|") +
          ")";
        i = close;
      }
    } else if ("\\^$.|+()[]}".includes(c)) out += "\\" + c;
    else out += c;
  }
  return out;
}

/** True when `path` (relative, "/"-separated) matches `glob`. A glob ending in "/**" also matches the folder. */
export function matchGlob(glob: string, path: string): boolean {
  let src = globSource(glob);
  if (glob.endsWith("/**")) src = globSource(glob.slice(0, -3)) + "(?:/.*)?";
  return new RegExp("^" + src + "$").test(path);
}

/** The category of a path under a root, by the given rules ("other" when none matches). */
export function categoryOf(rules: readonly CategoryRule[], path: string): Category {
  for (const r of rules) if (matchGlob(r.glob, path)) return r.category;
  return "other";
}
