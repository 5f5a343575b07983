// Package caches laid out as the tools write them (not bundled): npm's content-addressed _cacache, Go's
// module cache with its read-only (0555) module folders and its build cache, pip's HTTP cache and wheels,
// Cargo's registry, Maven's and Gradle's repositories, Yarn's cache, and a pnpm store whose files are
// hard-linked into a project's node_modules. Beside them the files no cache recipe may ever select: npm's
// settings and logs, Maven's and Cargo's credentials, Gradle's properties, Docker's client configuration.

import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { ageTree, put } from "@/tests/support/cleanup-fixtures";

/** Files that are no cache's and must survive every cache recipe. */
export const NEVER_SELECTED = [
  ".npmrc",
  ".npm/_logs/2026-11-20T10_00_00_000Z-debug-0.log",
  ".m2/settings.xml",
  ".cargo/credentials.toml",
  ".gradle/gradle.properties",
  ".docker/config.json",
  ".docker/buildx/instances/default",
];

/** The pnpm store's files linked into the project, and the project's paths of them. */
export const PNPM_LINKED = [
  ["v10/files/3a/4f1c9e", "lodash@4.17.21/node_modules/lodash/lodash.js"],
  ["v10/files/8b/c2d07a", "lodash@4.17.21/node_modules/lodash/package.json"],
] as const;
export const PNPM_STORE = ".local/share/pnpm/store";
export const PROJECT_PNPM = "work/app/node_modules/.pnpm";

/** Builds the caches in `home`, every entry `ageDays` old. */
export function buildPackageCaches(home: string, nowSec: number, ageDays = 10) {
  const p = (rel: string, bytes: number) => put(home, rel, bytes, ageDays, nowSec);
  for (const rel of NEVER_SELECTED) p(rel, 300);

  // npm: content by sha512 in two-level folders, an index entry per request
  p(".npm/_cacache/content-v2/sha512/1f/ab/9c0d3e5f7a", 48_000);
  p(".npm/_cacache/content-v2/sha512/7e/21/b4c6d8e0f2", 12_000);
  p(".npm/_cacache/index-v5/0c/3d/5a7b9c1d3e5f", 600);
  p(".npm/_cacache/index-v5/a4/e9/2b4d6f8a0c2e", 600);

  // Go: the download cache, the extracted modules (folders 0555, as go leaves them), the build cache
  const mod = "go/pkg/mod";
  p(`${mod}/cache/download/github.com/x/y/@v/v1.2.0.zip`, 30_000);
  p(`${mod}/cache/download/github.com/x/y/@v/v1.2.0.mod`, 200);
  p(`${mod}/cache/download/github.com/x/y/@v/list`, 20);
  p(`${mod}/github.com/x/y@v1.2.0/go.mod`, 200);
  p(`${mod}/github.com/x/y@v1.2.0/internal/z/z.go`, 9000);
  p(".cache/go-build/ab/ab12cd34ef56-a", 800);
  p(".cache/go-build/ab/ab12cd34ef56-d", 25_000);
  p(".cache/go-build/trim.txt", 10);

  p(".cache/pip/http-v2/a/b/c/d/e/abcdef0123456789", 40_000);
  p(".cache/pip/wheels/3f/9e/1a/numpy-2.1.0-cp312-cp312-linux_x86_64.whl", 60_000);
  p(".cargo/registry/index/index.crates.io-1949cf8c6b5b557f/config.json", 100);
  p(".cargo/registry/cache/index.crates.io-1949cf8c6b5b557f/serde-1.0.210.crate", 20_000);
  p(".cargo/registry/src/index.crates.io-1949cf8c6b5b557f/serde-1.0.210/src/lib.rs", 15_000);
  p(".m2/repository/org/apache/commons/commons-lang3/3.14.0/commons-lang3-3.14.0.jar", 35_000);
  p(".m2/repository/org/apache/commons/commons-lang3/3.14.0/commons-lang3-3.14.0.pom", 900);
  p(".gradle/caches/modules-2/files-2.1/com.google.guava/guava/33.0.0/1a2b/guava-33.0.0.jar", 30_000);
  p(".gradle/caches/8.10/transforms/0f/metadata.bin", 700);
  p(".cache/yarn/v6/npm-react-18.3.1-abc/node_modules/react/index.js", 5000);

  // pnpm: a content-addressed store; the project's node_modules/.pnpm holds hard links to its files
  p(`${PNPM_STORE}/v10/files/f0/0d1e2f3a`, 22_000); // no project links it
  p(`${PNPM_STORE}/v10/index/3a/4f-lodash@4.17.21.json`, 1500);
  for (const [file] of PNPM_LINKED) p(`${PNPM_STORE}/${file}`, 18_000);
  for (const [file, linked] of PNPM_LINKED) {
    const to = path.join(home, PROJECT_PNPM, linked);
    fs.mkdirSync(path.dirname(to), { recursive: true });
    fs.linkSync(path.join(home, PNPM_STORE, file), to);
  }

  for (const top of [".npm", "go", ".cache", ".cargo", ".m2", ".gradle", ".local/share/pnpm", "work"])
    ageTree(path.join(home, top), ageDays, nowSec);
  // what `go mod download` leaves: read-only module folders (the zip's files read-only too)
  execFileSync("chmod", ["-R", "a-w", path.join(home, mod, "github.com")]);
}
