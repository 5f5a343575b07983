// npm run setup: makes this machine ready for `npm test`, as CI's does: a PostgreSQL server for the database
// tests (scripts/setup/postgres.ts), Chromium for the browser tests, and the C compilers the reporter's native
// scanner is built with (musl-gcc for the small static one, cc otherwise). Quick when all is there; what it
// finds is written to TEST_SETUP_FILE, which `npm test` reads. Without root it changes nothing that needs root:
// it prints the one command to run first and fails, unless everything is already there.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { ensurePostgres } from "./setup/postgres";
import { TEST_SETUP_FILE, type TestSetup } from "./setup/file";

const isRoot = process.getuid?.() === 0;
const log = (s: string) => console.log(`[setup] ${s}`);

const has = (command: string) => spawnSync("sh", ["-c", `command -v ${command}`], { stdio: "ignore" }).status === 0;
// Debian's packages for what is missing (the browser tests run /usr/bin/chromium).
const PACKAGES: { name: string; present: () => boolean }[] = [
  { name: "chromium", present: () => fs.existsSync("/usr/bin/chromium") },
  { name: "musl-tools", present: () => has("musl-gcc") },
  { name: "gcc", present: () => has("cc") },
];

const missing = PACKAGES.filter((p) => !p.present()).map((p) => p.name);
const install = missing.length > 0 ? `apt-get update && apt-get install -y ${missing.join(" ")}` : null;
const postgres = await ensurePostgres(isRoot, log);
const asRoot = [install, "needsRoot" in postgres ? postgres.needsRoot : null].filter((c): c is string => c !== null);

if (asRoot.length > 0 && !isRoot) {
  console.error(`[setup] run this first (as root), then npm run setup again:\n  sudo sh -c '${asRoot.join(" && ")}'`);
  process.exit(1);
}
if (install) {
  log(`installing ${missing.join(", ")}`);
  const r = spawnSync("sh", ["-c", install], {
    stdio: "inherit",
    env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
  });
  if (r.status !== 0) {
    console.error(`[setup] ${install} failed`);
    process.exit(1);
  }
}
if ("needsRoot" in postgres) throw new Error("unreachable: as root the cluster was started");
fs.mkdirSync(path.dirname(TEST_SETUP_FILE), { recursive: true });
fs.writeFileSync(TEST_SETUP_FILE, `${JSON.stringify(postgres.server satisfies TestSetup, null, 2)}\n`);
log(`ready: PostgreSQL at ${postgres.server.url}, Chromium, ${has("musl-gcc") ? "musl-gcc and cc" : "cc"}`);
