import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CACHE_RECIPES } from "@/lib/catalog/recipe-data/caches";
import { du } from "@/tests/support/reporter";
import { buildReport } from "./build-report";
import { discoverRoots } from "./roots";
import { scanRoots } from "./scan-roots";

// Package caches where the tools' own variables put them, as a template sets them for every workspace
// (GOMODCACHE, CARGO_HOME, XDG_CACHE_HOME, ...): the tool writes there, so the cache root is there; a cache left at
// the old place still counts while the moved one does not exist; a variable that names a folder holding other
// roots, or the home itself, never makes a cache root of it (a cache recipe deletes its root whole).

let home: string;

function file(rel: string, bytes: number) {
  const abs = path.join(home, rel);
  fs.mkdirSync(path.dirname(abs), { recursive: true });
  fs.writeFileSync(abs, Buffer.alloc(bytes, 7));
}

beforeAll(() => {
  home = path.join(fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "cache-roots-"))), "home");
  // Go: the module cache moved by GOMODCACHE, an old one left at ~/go/pkg/mod; the build cache under XDG_CACHE_HOME
  file("cache/gomod/cache/download/golang.org/x/mod/@v/v0.20.0.zip", 300_000);
  file("cache/gomod/golang.org/x/mod@v0.20.0/go.mod", 2_000);
  file("go/pkg/mod/cache/download/old/@v/v1.0.0.zip", 50_000);
  file("xdg/go-build/ab/abcdef-d", 40_000);
  // Cargo under CARGO_HOME, pip under XDG_CACHE_HOME, npm under npm_config_cache
  file(".rust/cargo/registry/cache/index.crates.io-6f17d22bba15001f/serde-1.0.210.crate", 80_000);
  file("xdg/pip/http-v2/a/b/c/d/e/0123456789abcdef", 120_000);
  file("npm-cache/_cacache/content-v2/sha512/aa/bb/ccdd", 60_000);
  file("npm-cache/_logs/2026-11-28T00_00_00_000Z-debug-0.log", 1_000);
  // pnpm's store under PNPM_HOME, moved nowhere that exists: the fixed place counts
  file(".local/share/pnpm/store/v3/files/00/abcdef", 10_000);
  // an agent's folder, which GRADLE_USER_HOME below would swallow
  file(".claude/projects/-home-coder-app/0b1c.jsonl", 5_000);
  file(".claude/caches/placeholder", 1);
});

afterAll(() => fs.rmSync(path.dirname(home), { recursive: true, force: true }));

describe("package caches moved by the tools' variables", () => {
  const env = () => ({
    GOMODCACHE: path.join(home, "cache/gomod"),
    GOPATH: `${path.join(home, "gopath")}:/opt/go`,
    XDG_CACHE_HOME: path.join(home, "xdg"),
    CARGO_HOME: ".rust/cargo", // relative: to the home, as every moved folder
    npm_config_cache: path.join(home, "npm-cache"),
    PNPM_HOME: path.join(home, "no-such-pnpm"),
    YARN_CACHE_FOLDER: home, // the home itself
    GRADLE_USER_HOME: home, // its caches folder would be ~/caches: absent
    GOCACHE: "/var/cache/go-build", // another volume: the XDG place is not taken either, go writes elsewhere
  });

  it("are found where the variables put them, and at the old place while the new one does not exist", () => {
    const notes: string[] = [];
    const specs = discoverRoots({ home, env: env(), notes });
    const rel = (key: string) => specs.find((s) => s.key === key)?.rel;
    expect(rel("package-cache:go-mod")).toBe("cache/gomod");
    expect(rel("package-cache:cargo")).toBe(".rust/cargo/registry");
    expect(rel("package-cache:pip")).toBe("xdg/pip");
    expect(rel("package-cache:npm")).toBe("npm-cache/_cacache");
    expect(rel("package-cache:pnpm")).toBe(".local/share/pnpm/store");
    // GOCACHE names another volume: the go-build folder under XDG_CACHE_HOME, which go no longer fills, is still a
    // cache on this one.
    expect(rel("package-cache:go-build")).toBe("xdg/go-build");
    expect(rel("package-cache:yarn")).toBeUndefined();
    expect(rel("package-cache:gradle")).toBeUndefined();
    for (const s of specs) expect(s.rel.split("/")).not.toContain("..");
  });

  it("measure as du does at their moved places", async () => {
    const specs = discoverRoots({ home, env: env() }).filter((s) => s.kind === "package-cache");
    const { roots } = await scanRoots(specs, Math.floor(Date.now() / 1000), { mode: "node", home, parallel: 1 });
    const sizes = du(roots.map((r) => path.join(home, r.path)));
    expect(roots.length).toBe(6);
    for (const r of roots)
      expect({ key: r.key, bytes: r.bytes }).toEqual({ key: r.key, bytes: sizes.get(path.join(home, r.path)) });
  });

  it("count in the home's package caches, beside the caches at their fixed places, as du counts them all", async () => {
    const report = await buildReport(
      { home, identity: { id: "ws", name: "ws", owner: "o" }, config: null },
      env(),
      { mode: "find", native: null },
      new Date(),
      () => {},
    );
    const caches = ["cache/gomod", ".rust/cargo/registry", "xdg/pip", "xdg/go-build", "npm-cache/_cacache"];
    const fixed = ["go/pkg/mod", ".local/share/pnpm"]; // the old Go module cache counts too: it is one
    const total = execFileSync("du", ["-scxB1", ...[...caches, ...fixed].map((p) => path.join(home, p))], {
      encoding: "utf8",
    });
    expect(report.home!.kinds["package-cache"]).toBe(Number(total.trim().split("\n").at(-1)!.split("\t")[0]));
  });

  it("never take a folder that holds other roots as a cache", () => {
    const notes: string[] = [];
    const specs = discoverRoots({
      home,
      env: { GOMODCACHE: home + "/.", PIP_CACHE_DIR: path.join(home, ".claude/..") },
      notes,
    });
    expect(specs.find((s) => s.key === "package-cache:go-mod")?.rel).toBe("go/pkg/mod");
    expect(specs.find((s) => s.key === "package-cache:pip")).toBeUndefined();
    expect(specs.find((s) => s.key === "claude-code:data")?.rel).toBe(".claude");

    fs.mkdirSync(path.join(home, "work/.cache"), { recursive: true });
    file("work/projects/app/README.md", 100);
    const work = discoverRoots({
      home,
      env: { YARN_CACHE_FOLDER: path.join(home, "work") },
      config: { roots: [{ key: "projects", path: "work/projects" }] },
      notes,
    });
    expect(work.find((s) => s.key === "package-cache:yarn")).toBeUndefined();
    expect(work.find((s) => s.key === "projects")?.rel).toBe("work/projects");
    // nor a folder that is never a cache, or holds one: ~/.config, ~/.local (which holds ~/.local/share)
    fs.mkdirSync(path.join(home, ".config/gh"), { recursive: true });
    const broad = discoverRoots({
      home,
      env: { PIP_CACHE_DIR: path.join(home, ".config"), GOCACHE: ".local" },
      notes,
    });
    expect(broad.find((s) => s.key === "package-cache:pip")).toBeUndefined();
    expect(broad.find((s) => s.key === "package-cache:go-build")).toBeUndefined();
    expect(broad.find((s) => s.key === "package-cache:pnpm")?.rel).toBe(".local/share/pnpm/store");
    expect(notes).toContain(
      `skipped package-cache:pip: PIP_CACHE_DIR names ${path.join(home, ".config")}, which is or holds .config`,
    );
    expect(notes).toContain(
      `skipped package-cache:yarn: YARN_CACHE_FOLDER names ${path.join(home, "work")}, which is or holds projects`,
    );
  });

  it("say in their recipes which variables move them", () => {
    const go = CACHE_RECIPES.find((r) => r.id === "go-module-cache")!;
    expect(go.description).toMatch(
      /^The whole ~\/go\/pkg\/mod\/ \(or where GOMODCACHE or GOPATH puts it\), deleted for good/,
    );
    expect(CACHE_RECIPES.find((r) => r.id === "maven-repository")!.description).toMatch(
      /^The whole ~\/\.m2\/repository\/, /,
    );
  });
});
