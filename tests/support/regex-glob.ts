// The glob translation the reporter used before lib/catalog/globs.ts matched globs itself: each glob became a
// regular expression (which backtracks). Kept as the reference its tests compare the linear matcher with.

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

/** The old test of a glob (no "/**" folder rule): the whole path against the regular expression. */
export const regexGlob = (glob: string): RegExp => new RegExp("^" + globSource(glob) + "$");
