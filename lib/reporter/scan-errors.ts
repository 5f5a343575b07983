// Scan errors as the report lists them.

import { LIMITS } from "@/lib/report/constants";
import type { Report } from "@/lib/report/schema";

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
    this.items.push({ path: path.slice(0, LIMITS.pathLength), code: code.slice(0, 50), message: message.slice(0, 500) });
  }
}
