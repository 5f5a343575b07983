// One writer for a console that several things print to at once. `npm run demo` seeds the fleet while the app
// builds: a progress counter redrawn in place with "\r" ran into the build's lines ("[demo] 500/12346 reports
// ✓ Compiled"). Here every line is written whole: the build's output is read line by line and printed through
// the same writer, which, on a terminal, clears the progress line, prints the line, and draws the progress again
// below it; into a file or a pipe (no terminal to redraw on) progress is a line of its own at each tenth.
import readline from "node:readline";
import type { Readable } from "node:stream";

export type ConsoleOut = { write(text: string): unknown; isTTY?: boolean };

const CLEAR_LINE = "\r\x1b[K";

export type ConsoleLines = {
  /** A whole line, above the progress line when there is one. */
  line(text: string): void;
  /** The progress so far (`done` of `total`), shown as `text`. */
  progress(text: string, done: number, total: number): void;
  /** Leaves the last progress as a line of its own. */
  endProgress(): void;
  /** Prints every line of `stream` with `prefix`; resolves when the stream ends. */
  pipe(stream: Readable, prefix: string): Promise<void>;
};

export function consoleLines(out: ConsoleOut): ConsoleLines {
  let shown = "";
  let tenth = -1;
  const self: ConsoleLines = {
    line(text) {
      out.write(shown ? `${CLEAR_LINE}${text}\n${shown}` : `${text}\n`);
    },
    progress(text, done, total) {
      if (out.isTTY) {
        out.write(`${CLEAR_LINE}${text}`);
        shown = text;
        return;
      }
      const now = total > 0 ? Math.floor((done / total) * 10) : 10;
      if (now > tenth) out.write(`${text}\n`);
      tenth = Math.max(tenth, now);
    },
    endProgress() {
      if (shown) out.write("\n");
      shown = "";
      tenth = -1;
    },
    pipe(stream, prefix) {
      return new Promise((resolve) => {
        const lines = readline.createInterface({ input: stream, crlfDelay: Infinity });
        lines.on("line", (l) => self.line(`${prefix}${l}`));
        lines.on("close", resolve);
      });
    },
  };
  return self;
}
