import { Pool } from "pg";

/**
 * Samples, every 250 ms until stopped, how far the kept aggregates are behind ingest: the age of the oldest
 * waiting mark in kept_pending (what the overview's "figures as of" shows). `stop` resolves to the largest lag
 * seen, in seconds: how late a page may show a report at the load the bench puts on the app.
 */
export function sampleKeptLag(url: string): { stop: () => Promise<number> } {
  const pool = new Pool({ connectionString: url, max: 1 });
  let worst = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      const { rows } = await pool.query<{ lag: number | null }>(
        "select extract(epoch from clock_timestamp() - min(marked_at))::float8 as lag from kept_pending",
      );
      worst = Math.max(worst, rows[0].lag ?? 0);
      await new Promise((r) => setTimeout(r, 250));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      await pool.end();
      return worst;
    },
  };
}
