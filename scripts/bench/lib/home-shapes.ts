// Homes of the shapes the reporter must measure at du's speed (`npm run bench -- reporter --shapes`, and the
// whole-home bench's 2-million-entry home). Each generator fills `home`.

import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

/** A tenth of the files hold a few hundred bytes (one block each); the rest are empty, as many lock and marker files are. */
const content = (n: number) => (n % 10 === 0 ? Buffer.alloc(100 + (n % 3000), 120) : Buffer.alloc(0));

/** `files` files under `base`, 100 to a folder, folders 50 to a parent: a tree three to four levels deep. */
function spread(base: string, files: number, start: number): number {
  let n = 0;
  for (let a = 0; n < files; a++) {
    for (let b = 0; b < 50 && n < files; b++) {
      const dir = path.join(base, `p${a}`, `q${b}`);
      fs.mkdirSync(dir, { recursive: true });
      for (let f = 0; f < 100 && n < files; f++, n++) fs.writeFileSync(path.join(dir, `f${f}`), content(start + n));
    }
  }
  return n;
}

/** Shares of the home's files: the places a real home fills. */
const SHARES: [string, number][] = [
  [".claude/projects", 0.08],
  [".codex/sessions", 0.04],
  [".local/share/opencode/storage", 0.03],
  [".npm/_cacache/content-v2", 0.15],
  ["go/pkg/mod/github.com", 0.1],
  [".cache/pip/http-v2", 0.05],
  [".vscode-server/extensions", 0.1],
  ["src/web/node_modules", 0.2],
  ["src/api/node_modules", 0.1],
  ["src/api/target/debug", 0.05],
  ["work/data", 0.1],
];

/**
 * A developer's home of about `entries` entries (agents' folders, package caches, node_modules, an IDE server);
 * returns the files written.
 */
export function developerHome(home: string, entries: number): number {
  let n = 0;
  for (const [rel, share] of SHARES) n += spread(path.join(home, rel), Math.round((entries * share) / 1.01), n);
  return n;
}

/** Small files (0-3 KB) in the leaves of a binary tree of folders twelve deep: 4,096 leaves of 47 files. */
export function deepHome(home: string): void {
  const leaves = (dir: string, depth: number, id: number) => {
    if (depth === 12) {
      fs.mkdirSync(dir, { recursive: true });
      for (let f = 0; f < 47; f++)
        fs.writeFileSync(path.join(dir, `f${f}.txt`), Buffer.alloc((id * 47 + f) % 3000, 120));
      return;
    }
    for (const k of [0, 1]) leaves(path.join(dir, `d${depth}-${k}`), depth + 1, id * 2 + k);
  };
  leaves(path.join(home, "src"), 0, 0);
}

/**
 * A few large files: fallocate'd, so they hold real blocks (du counts them, unlike a sparse file's holes) yet
 * take no time to write. 3 × 1 GiB and 3 × 256 MiB, with a shell's dotfiles.
 */
export function largeFilesHome(home: string): void {
  const sizes = ["1G", "1G", "1G", "256M", "256M", "256M"];
  fs.mkdirSync(path.join(home, "data"), { recursive: true });
  sizes.forEach((size, i) => {
    const r = spawnSync("fallocate", ["-l", size, path.join(home, "data", `disk-${i}.img`)], { encoding: "utf8" });
    if (r.status !== 0) throw new Error(`fallocate -l ${size}: ${r.stderr || r.error}`);
  });
  for (const f of [".bashrc", ".profile", ".gitconfig"]) fs.writeFileSync(path.join(home, f), content(0));
}

/** 50 module folders (`.coder-modules/<ns>/<module>`, 5 namespaces of 10), each of scripts, logs and 1,000 files. */
export function modulesHome(home: string): void {
  const known = ["claude-code", "codex", "gemini", "goose", "aider", "amazon-q", "cursor", "opencode", "amp", "kiro"];
  for (const ns of ["coder", "acme", "infra", "data", "tools"]) {
    known.forEach((name, m) => {
      const dir = path.join(home, ".coder-modules", ns, ns === "coder" ? name : `module-${m}`);
      fs.mkdirSync(path.join(dir, "scripts"), { recursive: true });
      fs.writeFileSync(path.join(dir, "scripts", "run.sh"), content(0));
      fs.mkdirSync(path.join(dir, "logs"));
      for (let i = 0; i < 20; i++) fs.writeFileSync(path.join(dir, "logs", `run-${i}.log`), content(i));
      spread(path.join(dir, "data"), 1000, m * 1000);
    });
  }
}

/** du -sx --inodes of the home: what the report's files + dirs must equal. */
export function inodes(home: string): number {
  const r = spawnSync("du", ["-sx", "--inodes", home], { encoding: "utf8" });
  return Number(r.stdout.split("\t")[0]);
}
