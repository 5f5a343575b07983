// PostgreSQL's COPY … WITH CSV ends its lines with LF and has no option for CRLF, which the file writer uses
// (RFC 4180). A line break inside a quoted field is data and stays as it is; only the ones between records
// become CRLF. A quote byte (0x22) is never part of a multi-byte UTF-8 character, so bytes can be scanned as
// they come, and a doubled quote inside a field toggles the state twice.

const LF = 10;
const QUOTE = 34;
const CR = 13;

/** A converter for one CSV stream, chunk after chunk: keeps whether the last chunk ended inside quotes. */
export function crlfLineEnds(): (chunk: Uint8Array) => Uint8Array {
  let quoted = false;
  // Where the record ends of a chunk are, then one copy into a buffer of the exact size (a slice per line and
  // a concatenation cost as much as the rest of the export's work in Node).
  let ends = new Int32Array(1024);
  return (chunk) => {
    let count = 0;
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
      if (count === ends.length) {
        const more = new Int32Array(ends.length * 2);
        more.set(ends);
        ends = more;
      }
      ends[count++] = lf;
      i = lf + 1;
    }
    if (count === 0) return chunk;
    const source = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length);
    const out = Buffer.allocUnsafe(chunk.length + count);
    let from = 0;
    let to = 0;
    for (let k = 0; k < count; k++) {
      const lf = ends[k];
      to += source.copy(out, to, from, lf);
      out[to++] = CR;
      out[to++] = LF;
      from = lf + 1;
    }
    source.copy(out, to, from);
    return out;
  };
}
