// The local cleanup log (~/.coder-modules/coder/storage-reporter/cleanup.log): one line per action, appended
// and flushed before the next action, so that whatever happens to the server or the process, the workspace
// keeps a record of what was removed. A job's result carries its last lines.

import fs from "node:fs";
import path from "node:path";
import { CLEANUP_LOG } from "@/lib/catalog/recipes";

/** Past this size the log is renamed to cleanup.log.1 (one generation kept). */
const ROTATE_BYTES = 10 * 1024 * 1024;
const TAIL_LINES = 200;

export class CleanupLog {
  readonly file: string;
  private readonly tail: string[] = [];

  constructor(
    home: string,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.file = path.join(home, CLEANUP_LOG);
    fs.mkdirSync(path.dirname(this.file), { recursive: true, mode: 0o700 });
    try {
      if (fs.statSync(this.file).size > ROTATE_BYTES) fs.renameSync(this.file, this.file + ".1");
    } catch {
      /* no log yet */
    }
  }

  /** Appends `<time> <job> <action> <path> <bytes>` (and a note); the path is JSON-quoted when it has spaces. */
  write(job: string, action: string, relPath: string, bytes: number, note?: string) {
    const p = /[\s"\\]/.test(relPath) || relPath === "" ? JSON.stringify(relPath) : relPath;
    const line = `${this.now().toISOString()} ${job} ${action} ${p} ${bytes}${note ? " " + note.replace(/\s+/g, " ").slice(0, 500) : ""}`;
    fs.appendFileSync(this.file, line + "\n", { mode: 0o600 });
    this.tail.push(line.slice(0, 1000));
    if (this.tail.length > TAIL_LINES) this.tail.shift(); // at most 201 entries: shift is fine
  }

  /** This process's last lines since `mark()`. */
  lines(): string[] {
    return [...this.tail];
  }

  /** Starts a new job's tail. */
  mark() {
    this.tail.length = 0;
  }
}
