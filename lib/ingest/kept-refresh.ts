import "server-only";
import type { Db } from "@/lib/db";
import { beforeClose } from "@/lib/db/before-close";
import { REFRESH_BATCH, refreshKeptPending } from "@/lib/db/queries/kept-pending";
import { decideNotices } from "@/lib/services/notifications";

/**
 * How long marks gather before a refresh: the longer, the more workspaces one rewrite covers (cheaper per report
 * under load), the later pages show a report. Pages show a report within this plus one refresh pass.
 */
export const REFRESH_DELAY_MS = 250;

/**
 * Rewrites the kept aggregates of the workspaces ingest marked (lib/db/queries/kept-pending.ts), after their
 * reports were acknowledged: the group-commit queue pokes it after each batch, and whatever a poke finds marked is
 * refreshed, marks left by a crash included. One pass at a time in a process; refreshKeptPending keeps it to one
 * across instances.
 */
export class KeptRefresher {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private closed = false;

  /**
   * `afterRefresh` gets the workspaces each pass rewrote, after its commit: the owners' notices are decided there,
   * in a transaction of their own.
   */
  constructor(
    private readonly db: Db,
    private readonly delayMs = REFRESH_DELAY_MS,
    private readonly afterRefresh?: (workspaceIds: string[]) => Promise<unknown>,
  ) {}

  /** Something was marked: refresh soon. */
  poke(): void {
    if (this.closed) return;
    if (this.running) this.again = true;
    else this.schedule(this.delayMs);
  }

  private schedule(ms: number) {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.running = this.pass().finally(() => {
        this.running = null;
        if (this.again) {
          this.again = false;
          if (!this.closed) this.schedule(this.delayMs);
        }
      });
    }, ms);
    this.timer.unref();
  }

  /** The database is closing: no pass starts again, and the one under way ends first (the marks stay). */
  async stop(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }

  private async pass(): Promise<void> {
    try {
      // Another instance's refresher holds the lock: its last pass may have read the marks before ours were
      // committed, so look again later.
      if ((await this.refreshAll()) === null) this.again = true;
    } catch (err) {
      // The marks stay for the next poke (no retry of its own: a closed database would fail forever).
      console.error("[kept] refreshing the kept aggregates failed:", err);
    }
  }

  /** Refreshes until no mark is left, then calls afterRefresh; null when another refresher holds the lock. */
  private async refreshAll(): Promise<string[] | null> {
    const done: string[] = [];
    for (;;) {
      const ids = await refreshKeptPending(this.db);
      if (ids === null) return null;
      done.push(...ids);
      if (ids.length < REFRESH_BATCH || this.closed) break;
    }
    if (done.length && this.afterRefresh) {
      // The aggregates are committed whatever this does: a failed decision is made again at the next report or
      // Coder sync.
      await this.afterRefresh(done).catch((err) => console.error("[notify] deciding the notices failed:", err));
    }
    return done;
  }

  /**
   * Resolves once every workspace marked before the call is refreshed: tests and benchmarks that read the
   * aggregates right after ingest, and a maintenance step that wants none left behind.
   */
  async drain(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    await this.running;
    while ((await this.refreshAll()) === null) await new Promise((r) => setTimeout(r, 20));
  }
}

const refreshers = new WeakMap<object, KeptRefresher>();

/** The process's refresher for `db` (one per database object, as the ingest queue). */
export function keptRefresherFor(db: Db): KeptRefresher {
  let r = refreshers.get(db);
  if (!r) {
    const refresher = new KeptRefresher(db, REFRESH_DELAY_MS, (ids) => decideNotices(db, ids));
    refreshers.set(db, refresher);
    beforeClose(db, () => refresher.stop());
    r = refresher;
  }
  return r;
}
