// PostgreSQL's COPY … WITH CSV ends its lines with LF and has no option for CRLF, which the file writer uses
// (RFC 4180). A line break inside a quoted field is data and stays as it is; only the ones between records
// become CRLF. A quote byte (0x22) is never part of a multi-byte UTF-8 character, so bytes can be scanned as
// they come, and a doubled quote inside a field toggles the state twice.

const LF = 10;
const QUOTE = 34;
const CRLF = Uint8Array.of(13, 10);

/** A converter for one CSV stream, chunk after chunk: keeps whether the last chunk ended inside quotes. */
export function crlfLineEnds(): (chunk: Uint8Array) => Uint8Array {
  let quoted = false;
  return (chunk) => {
    const parts: Uint8Array[] = [];
    let start = 0;
    let i = 0;
    // Searched once per quote passed, not once per line: most exports hold no quote at all.
    let nextQuote = chunk.indexOf(QUOTE);
    for (;;) {
      if (quoted) {
        if (nextQuote < 0) break;
        quoted = false;
        i = nextQuote + 1;
        nextQuote = chunk.indexOf(QUOTE, i);
        continue;
      }
      const lf = chunk.indexOf(LF, i);
      if (nextQuote >= 0 && (lf < 0 || nextQuote < lf)) {
        quoted = true;
        i = nextQuote + 1;
        nextQuote = chunk.indexOf(QUOTE, i);
        continue;
      }
      if (lf < 0) break;
      parts.push(chunk.subarray(start, lf), CRLF);
      start = i = lf + 1;
    }
    if (start === 0) return chunk;
    parts.push(chunk.subarray(start));
    return Buffer.concat(parts);
  };
}
