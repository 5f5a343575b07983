// npm run bench -- backup [--workspaces N] [--days N]: the product's backup and restore (docs/backup.md) on a
// generated fleet (default 2,000 workspaces, 90 days): the backup of the embedded database (the time ingest pauses
// there), its restore into PostgreSQL, the backup of that PostgreSQL database and its restore into a new embedded
// folder; beside them the system's pg_dump -Fc and pg_restore of the same PostgreSQL database, when the server's
// major version of them is on the PATH (else skipped with a note). Goal: at least half their speed.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";
import { backupTarget, restoreTarget, type Target } from "@/lib/backup/run";
import { openEmbedded } from "@/lib/db/open";
import { seedDemoFleet } from "@/lib/demo/fleet";
import { scratchDir } from "@/tests/support/backup";
import { createScratchPostgres } from "@/tests/support/db";
import { recordMeasure } from "../lib/bench-results";

const { values } = parseArgs({
  options: { workspaces: { type: "string", default: "2000" }, days: { type: "string", default: "90" } },
});
const [workspaces, days] = [Number(values.workspaces), Number(values.days)];
const tmp = scratchDir();
const seconds = async (fn: () => Promise<unknown>) => {
  const started = performance.now();
  await fn();
  return (performance.now() - started) / 1000;
};
const mib = (file: string) => `${(fs.statSync(file).size / 1024 ** 2).toFixed(1)} MiB`;

/** pg_dump and pg_restore of the server's major version, or why not. */
async function systemTools(url: string): Promise<string | null> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const { rows } = await client.query<{ v: string }>("show server_version_num");
  await client.end();
  const major = Math.floor(Number(rows[0].v) / 10000);
  const version = spawnSync("pg_dump", ["--version"], { encoding: "utf8" });
  if (version.status !== 0) return "no pg_dump on the PATH";
  const m = /(\d+)\.\d+/.exec(version.stdout);
  return m && Number(m[1]) === major ? null : `pg_dump is ${version.stdout.trim()}, the server ${major}`;
}

const run = (cmd: string, args: string[]) => {
  const r = spawnSync(cmd, args, { stdio: ["ignore", "ignore", "inherit"] });
  if (r.status !== 0) throw new Error(`${cmd} exited with ${r.status}`);
};

const source: Target = { kind: "embedded", dir: path.join(tmp.dir, "source") };
const scratch = await createScratchPostgres();
const other = await createScratchPostgres();
try {
  const seedStarted = performance.now();
  const database = await openEmbedded(source.dir);
  const seeded = await seedDemoFleet(database.db, { workspaces, days });
  await database.close();
  console.log(
    `fleet: ${workspaces} workspaces, ${days} days, ${seeded.reports} reports ` +
      `(seeded in ${((performance.now() - seedStarted) / 1000).toFixed(0)} s)`,
  );

  const first = path.join(tmp.dir, "embedded.storage-backup");
  const embeddedBackup = await seconds(() => backupTarget(source, fs.createWriteStream(first), { withSecrets: true }));
  console.log(`backup, embedded:          ${embeddedBackup.toFixed(1)} s, ${mib(first)} (ingest waits this long)`);
  const postgres: Target = { kind: "postgres", url: scratch.url };
  const pgRestore = await seconds(() => restoreTarget(postgres, first));
  console.log(`restore into PostgreSQL:   ${pgRestore.toFixed(1)} s`);
  const second = path.join(tmp.dir, "postgres.storage-backup");
  const pgBackup = await seconds(() => backupTarget(postgres, fs.createWriteStream(second), { withSecrets: true }));
  console.log(`backup, PostgreSQL:        ${pgBackup.toFixed(1)} s, ${mib(second)}`);
  const back = await seconds(() => restoreTarget({ kind: "embedded", dir: path.join(tmp.dir, "back") }, second));
  console.log(`restore into embedded:     ${back.toFixed(1)} s`);

  const skip = await systemTools(scratch.url);
  if (skip) console.log(`pg_dump and pg_restore skipped: ${skip}`);
  else {
    const dump = path.join(tmp.dir, "pg_dump.custom");
    const dumpTime = await seconds(async () => run("pg_dump", ["-Fc", "-f", dump, scratch.url]));
    console.log(`pg_dump -Fc:               ${dumpTime.toFixed(1)} s, ${mib(dump)}`);
    const restoreTime = await seconds(async () =>
      run("pg_restore", ["--single-transaction", "--no-owner", "-d", other.url, dump]),
    );
    console.log(`pg_restore:                ${restoreTime.toFixed(1)} s`);
    console.log(
      `ratio pg_dump / backup:     ${recordMeasure("backup pg_dump / backup", dumpTime / pgBackup, { op: ">=", target: 0.5 })}`,
    );
    console.log(
      `ratio pg_restore / restore: ${recordMeasure("backup pg_restore / restore", restoreTime / pgRestore, { op: ">=", target: 0.5 })}`,
    );
  }
} finally {
  await scratch.drop();
  await other.drop();
  tmp.remove();
}
