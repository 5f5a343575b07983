// npm run bench -- backup [--workspaces N] [--days N]: the product's backup and restore (docs/backup.md) on a
// generated fleet (default 2,000 workspaces, 90 days): the backup of the embedded database (the time ingest pauses
// there), its restore into PostgreSQL, the backup of that PostgreSQL database and its restore into a new embedded
// folder; beside them the system's pg_dump -Fc and pg_restore of the same PostgreSQL database, when the server's
// major version of them is on the PATH (else skipped with a note). Goal: at least half their speed.
//
// Each step runs as its command runs for an operator (`npm run backup`, `npm run restore`, pg_dump, pg_restore):
// one process each, its wall time whole and peak memory (RSS, through /usr/bin/time) side by side; for the
// product's commands also the time they report themselves (the process's start, Node and tsx, left out).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";
import { checkBackup } from "@/lib/backup/restore";
import { openEmbedded } from "@/lib/db/open";
import { seedDemoFleet } from "@/lib/demo/fleet";
import { scratchDir } from "@/tests/support/backup";
import { createScratchPostgres } from "@/tests/support/db";
import { recordMeasure } from "../lib/bench-results";
import { TIME } from "./lib/reporter-process";

const { values } = parseArgs({
  options: { workspaces: { type: "string", default: "2000" }, days: { type: "string", default: "90" } },
});
const [workspaces, days] = [Number(values.workspaces), Number(values.days)];
const tmp = scratchDir();
const mib = (bytes: number) => `${(bytes / 1024 ** 2).toFixed(1)} MiB`;
const load = () => `load ${os.loadavg()[0].toFixed(1)}`;

/** A command's whole wall time, its peak RSS, and the duration it reports itself ("… in 12.3 s."), if it does. */
type Run = { ms: number; rssKb: number | null; ownMs: number | null };
function timed(cmd: string, args: string[], env: NodeJS.ProcessEnv = process.env): Run {
  const started = performance.now();
  const r = TIME
    ? spawnSync(TIME, ["-f", "%M", cmd, ...args], { encoding: "utf8", env })
    : spawnSync(cmd, args, { encoding: "utf8", env });
  const ms = performance.now() - started;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")} exited ${r.status}: ${r.stderr}`);
  const rss = TIME ? Number(r.stderr.trim().split("\n").pop()) : NaN;
  const own = / in ([\d.]+) s\./.exec(r.stdout + r.stderr);
  return { ms, rssKb: Number.isFinite(rss) ? rss : null, ownMs: own ? Number(own[1]) * 1000 : null };
}
const line = (what: string, r: Run, extra = "") =>
  console.log(
    `${what.padEnd(26)} ${(r.ms / 1000).toFixed(1).padStart(6)} s` +
      `${r.ownMs === null ? "" : ` (${(r.ownMs / 1000).toFixed(1)} s after its start)`}, ` +
      `peak ${r.rssKb === null ? "?" : mib(r.rssKb * 1024)}${extra}, ${load()}`,
  );

/** pg_dump and pg_restore of the server's major version, or why not. */
async function systemTools(url: string): Promise<string | null> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const { rows } = await client.query<{ v: string }>("select current_setting('server_version_num') as v");
  await client.end();
  const major = Math.floor(Number(rows[0].v) / 10000);
  const version = spawnSync("pg_dump", ["--version"], { encoding: "utf8" });
  if (version.status !== 0) return "no pg_dump on the PATH";
  const m = /(\d+)\.\d+/.exec(version.stdout);
  return m && Number(m[1]) === major ? null : `pg_dump is ${version.stdout.trim()}, the server ${major}`;
}

/** `npm run backup` or `npm run restore`, on the embedded folder `dir` or the PostgreSQL database `url`. */
const command = (script: "backup" | "restore", args: string[], on: { dir: string } | { url: string }) => {
  const env = { ...process.env, DATABASE_URL: "url" in on ? on.url : "", STORAGE_DATA_DIR: "dir" in on ? on.dir : "" };
  return timed("node", ["--conditions=react-server", "--import", "tsx", `scripts/${script}.ts`, ...args], env);
};

const source = path.join(tmp.dir, "source");
const scratch = await createScratchPostgres();
const other = await createScratchPostgres();
try {
  const seedStarted = performance.now();
  const database = await openEmbedded(source);
  const seeded = await seedDemoFleet(database.db, { workspaces, days });
  await database.close();
  console.log(
    `fleet: ${workspaces} workspaces, ${days} days, ${seeded.reports} reports ` +
      `(seeded in ${((performance.now() - seedStarted) / 1000).toFixed(0)} s); ${os.cpus().length} cores`,
  );

  const first = path.join(tmp.dir, "embedded.storage-backup");
  const embeddedBackup = command("backup", [first, "--with-secrets"], { dir: source });
  const { manifest } = await checkBackup(first);
  const rows = manifest.tables.reduce((n, t) => n + t.rows, 0);
  line(
    "backup, embedded:",
    embeddedBackup,
    `, ${mib(fs.statSync(first).size)}, ${rows.toLocaleString("en")} rows in ${manifest.tables.length} tables ` +
      `(ingest waits this long)`,
  );
  const pgRestore = command("restore", [first], { url: scratch.url });
  line("restore into PostgreSQL:", pgRestore);
  const second = path.join(tmp.dir, "postgres.storage-backup");
  const pgBackup = command("backup", [second, "--with-secrets"], { url: scratch.url });
  line("backup, PostgreSQL:", pgBackup, `, ${mib(fs.statSync(second).size)}`);
  const back = command("restore", [second], { dir: path.join(tmp.dir, "back") });
  line("restore into embedded:", back);

  const skip = await systemTools(scratch.url);
  if (skip) console.log(`pg_dump and pg_restore skipped: ${skip}`);
  else {
    const dump = path.join(tmp.dir, "pg_dump.custom");
    const dumpRun = timed("pg_dump", ["-Fc", "-f", dump, scratch.url]);
    line("pg_dump -Fc:", dumpRun, `, ${mib(fs.statSync(dump).size)}`);
    const restoreRun = timed("pg_restore", ["--single-transaction", "--no-owner", "-d", other.url, dump]);
    line("pg_restore:", restoreRun);
    console.log(
      `ratio pg_dump / backup:     ${recordMeasure("backup pg_dump / backup", dumpRun.ms / pgBackup.ms, { op: ">=", target: 0.5 })}`,
    );
    console.log(
      `ratio pg_restore / restore: ${recordMeasure("backup pg_restore / restore", restoreRun.ms / pgRestore.ms, { op: ">=", target: 0.5 })}`,
    );
  }
} finally {
  await scratch.drop();
  await other.drop();
  tmp.remove();
}
