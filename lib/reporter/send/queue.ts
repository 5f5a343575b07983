// What a run sends: the spooled reports read back, then the new one, cut into batches the dashboard accepts.

import { LIMITS } from "@/lib/report-format/constants";
import type { Spool, SpooledReport } from "../state";
import type { Delivery } from "./context";
import { gunzip } from "./http";

/** A report on its way: its gzipped body, its JSON (for a batch), and its spool file if it waited there. */
export type Item = { id: string; body: Buffer; json: string; spooled: SpooledReport | null };

/** Spooled reports (oldest first) then the new one; a spool file that cannot be read back is dropped, said so. */
export function readQueue(ctx: Delivery, spool: Spool): Item[] {
  const items: Item[] = [];
  for (const s of spool.list()) {
    try {
      const body = spool.read(s);
      const json = gunzip(body).toString("utf8");
      const id = (JSON.parse(json) as { id?: unknown } | null)?.id;
      if (id !== s.id) throw new Error(`holds report ${String(id)}`);
      items.push({ id: s.id, body, json, spooled: s });
    } catch (err) {
      // Truncated by a full disk or a crash, or damaged: sending it would fail forever.
      ctx.log(`spooled report ${s.id} is unreadable (${(err as Error).message}): dropped, the others are sent`);
      spool.remove(s);
    }
  }
  items.push({ id: ctx.report.id, body: ctx.body, json: JSON.stringify(ctx.report), spooled: null });
  return items;
}

/** Consecutive items in batches of at most LIMITS.reportBatchSize reports and the batch body's byte limit. */
export function batches(items: Item[]): Item[][] {
  const out: Item[][] = [];
  let size = 0;
  for (const item of items) {
    const last = out.at(-1);
    const bytes = Buffer.byteLength(item.json) + 1;
    if (!last || last.length >= LIMITS.reportBatchSize || size + bytes > LIMITS.reportBatchBodyBytes - 64) {
      out.push([item]);
      size = 0;
    } else last.push(item);
    size += bytes;
  }
  return out;
}
