// File names that are not UTF-8. Linux names are bytes; a name written by a Latin-1 tool ("caf\xe9") or cut
// in the middle of a character is not text. Decoded leniently it became U+FFFD, which stores a name that
// names nothing; sent as bytes it is not JSON. So:
//
// - inside the reporter, each byte that is not part of valid UTF-8 is held as one lone low surrogate,
//   U+DC80–U+DCFF (Python's "surrogateescape"): decoding valid UTF-8 never yields one, so nothing is lost;
// - on the wire (the report schema's `pathEncoding: "escaped"`), such a path has each of those bytes written
//   `\xHH` (two upper-case hex digits) and each backslash of the name itself `\\`; paths without the field are
//   plain UTF-8, as every reporter before this one sent them. Escaped, the path is readable text as it stands.
// Shared by the reporter and the server: no Node-only code.

/** The wire marker of a path written in the escaped form above. */
export const ESCAPED = "escaped";

const LONE_LOW = /[\uDC80-\uDCFF]/;

/** Length of the valid UTF-8 sequence starting at `i`, or 0 when the byte there starts none. */
function sequenceAt(b: Uint8Array, i: number): number {
  const c = b[i];
  if (c < 0x80) return 1;
  const cont = (k: number) => i + k < b.length && (b[i + k] & 0xc0) === 0x80;
  if (c >= 0xc2 && c <= 0xdf) return cont(1) ? 2 : 0;
  if (c >= 0xe0 && c <= 0xef) {
    const c1 = b[i + 1];
    // no overlong forms (E0 80–9F) and no encoded surrogates (ED A0–BF)
    if ((c === 0xe0 && c1 < 0xa0) || (c === 0xed && c1 > 0x9f)) return 0;
    return cont(1) && cont(2) ? 3 : 0;
  }
  if (c >= 0xf0 && c <= 0xf4) {
    const c1 = b[i + 1];
    if ((c === 0xf0 && c1 < 0x90) || (c === 0xf4 && c1 > 0x8f)) return 0;
    return cont(1) && cont(2) && cont(3) ? 4 : 0;
  }
  return 0;
}

const utf8 = new TextDecoder();

/** A name's bytes as the reporter holds them: UTF-8 decoded, each stray byte as U+DC80–U+DCFF. */
export function decodeName(bytes: Uint8Array): string {
  let out = "";
  let run = 0; // start of the current run of valid sequences
  let i = 0;
  while (i < bytes.length) {
    const n = sequenceAt(bytes, i);
    if (n) {
      i += n;
      continue;
    }
    out += utf8.decode(bytes.subarray(run, i)) + String.fromCharCode(0xdc00 + bytes[i]);
    i++;
    run = i;
  }
  return out + utf8.decode(bytes.subarray(run, i));
}

/** Whether a path as the reporter holds it has bytes that are not UTF-8. */
export const hasStrayBytes = (path: string) => LONE_LOW.test(path);

/** A path for the wire: plain when it is text, else escaped (`\xHH`, `\\`) and marked. */
export function wirePath(path: string): { path: string; pathEncoding?: typeof ESCAPED } {
  if (!hasStrayBytes(path)) return { path };
  const escaped = path
    .replace(/\\/g, "\\\\")
    .replace(/[\uDC80-\uDCFF]/g, (c) => `\\x${(c.charCodeAt(0) - 0xdc00).toString(16).toUpperCase()}`);
  return { path: escaped, pathEncoding: ESCAPED };
}

/** An entry with its path made ready for the wire (the other fields as they are). */
export function withWirePath<T extends { path: string }>(entry: T): T & { pathEncoding?: typeof ESCAPED } {
  const wire = wirePath(entry.path);
  return wire.pathEncoding ? { ...entry, ...wire } : entry;
}

/** The bytes a wire path names (the escaped form undone): what the name was on the workspace's disk. */
export function pathBytes(path: string, encoding?: string): Uint8Array {
  const text = new TextEncoder();
  if (encoding !== ESCAPED) return text.encode(path);
  const out: number[] = [];
  for (let i = 0; i < path.length;) {
    if (path[i] === "\\" && path[i + 1] === "\\") {
      out.push(0x5c);
      i += 2;
    } else if (path[i] === "\\" && path[i + 1] === "x") {
      out.push(parseInt(path.slice(i + 2, i + 4), 16));
      i += 4;
    } else {
      const cp = path.codePointAt(i)!;
      const ch = String.fromCodePoint(cp);
      out.push(...text.encode(ch));
      i += ch.length;
    }
  }
  return new Uint8Array(out);
}
