// Scan errors as the report lists them. Both scanners must name the same failure alike (the reports of the two
// are compared in the tests), so Node's error codes get find's wording and find's wording gets Node's codes.

import { LIMITS } from "@/lib/report-format/constants";
import type { Report } from "@/lib/report-format/schema";

export type ScanError = NonNullable<Report["errors"]>[number];

/** Collects scan errors, keeping at most LIMITS.errors of them (and counting the rest). */
export class ErrorLog {
  readonly items: ScanError[] = [];
  dropped = 0;
  add(path: string, code: string, message: string) {
    if (this.items.length >= LIMITS.errors) {
      this.dropped++;
      return;
    }
    this.items.push({
      path: path.slice(0, LIMITS.pathLength),
      code: code.slice(0, 50),
      message: message.slice(0, 500),
    });
  }
}

const FIND_WORDING: Record<string, string> = {
  EACCES: "Permission denied",
  EPERM: "Operation not permitted",
  ELOOP: "Too many levels of symbolic links",
  ENOTDIR: "Not a directory",
};

export function errorCode(err: unknown): string {
  return (err as NodeJS.ErrnoException)?.code ?? "EIO";
}

/** A Node error's message as find would print it. */
export function errorText(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  const code = e?.code;
  return (
    (code && FIND_WORDING[code]) ||
    String(e?.message ?? err)
      .replace(/^[A-Z]+: /, "")
      .split(",")[0]
  );
}

/** The Node error code for one of find's messages. */
export function codeOfFindMessage(message: string): string {
  if (/Permission denied/.test(message)) return "EACCES";
  if (/not permitted/.test(message)) return "EPERM";
  if (/symbolic links/.test(message)) return "ELOOP";
  return "EIO";
}
