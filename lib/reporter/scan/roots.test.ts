// Root discovery never reaches outside the home through a symbolic link on the way to a root, and names the
// roots it skips; a root reached through a link that stays inside the home is measured at its real path.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { discoverRoots } from "./roots";

let tmp: string;
let home: string;

beforeAll(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "reporter-roots-")));
  home = path.join(tmp, "home");
  const outside = path.join(tmp, "elsewhere", "modules");
  fs.mkdirSync(path.join(outside, "acme", "mod-a"), { recursive: true });
  fs.mkdirSync(path.join(outside, "acme", "mod-b"), { recursive: true });
  fs.mkdirSync(path.join(home, "dotfiles", "share", "goose"), { recursive: true });
  // the modules' folder leads out of the home; ~/.local/share to another folder of the home
  fs.symlinkSync(outside, path.join(home, ".coder-modules"));
  fs.mkdirSync(path.join(home, ".local"));
  fs.symlinkSync(path.join(home, "dotfiles", "share"), path.join(home, ".local", "share"));
});

afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

it("skips the roots behind a link out of the home, naming each, and measures the others at their real paths", () => {
  const notes: string[] = [];
  const roots = discoverRoots({ home, env: {}, notes });
  expect(roots.map((r) => [r.key, r.abs])).toEqual([["goose:data", path.join(home, "dotfiles", "share", "goose")]]);
  for (const mod of ["mod-a", "mod-b"])
    expect(notes).toContain(
      `skipped acme/${mod}: ${path.join(home, ".coder-modules", "acme", mod)} leads outside the home folder through a symbolic link`,
    );
});
