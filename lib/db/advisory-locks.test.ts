import fs from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import * as locks from "./advisory-locks";

it("gives every advisory lock an id of its own", () => {
  const ids = Object.values(locks);
  expect(ids.length).toBeGreaterThan(1);
  expect(new Set(ids).size).toBe(ids.length);
});

/** The app's source files (tests may hold a lock by its number to simulate another instance). */
function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === "node_modules" ? [] : sources(p);
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [p] : [];
  });
}

it("takes every advisory lock by its name from lib/db/advisory-locks.ts, never by a number written elsewhere", () => {
  const takers = ["lib", "app", "scripts"]
    .flatMap(sources)
    .map((file) => ({ file, text: fs.readFileSync(file, "utf8") }))
    .filter(({ text }) => /pg_(try_)?advisory_(xact_)?(un)?lock/.test(text));
  expect(takers.length).toBeGreaterThan(1);
  const byNumber = takers.filter(({ text }) => /advisory_(xact_)?(un)?lock(_shared)?\(\s*\d/.test(text));
  expect(byNumber.map((t) => t.file)).toEqual([]);
  const notFromHere = takers.filter(({ text }) => !/from "(\.\/|\.\.\/|@\/lib\/db\/)advisory-locks"/.test(text));
  expect(notFromHere.map((t) => t.file)).toEqual([]);
});
