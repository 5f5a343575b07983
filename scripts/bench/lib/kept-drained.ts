import { Pool } from "pg";

/** Resolves once the app has refreshed the kept aggregates of every workspace ingest marked (kept_pending empty). */
export async function keptDrained(url: string): Promise<void> {
  const pool = new Pool({ connectionString: url, max: 1 });
  try {
    for (;;) {
      const { rows } = await pool.query<{ n: number }>("select count(*)::int as n from kept_pending");
      if (rows[0].n === 0) return;
      await new Promise((r) => setTimeout(r, 20));
    }
  } finally {
    await pool.end();
  }
}
