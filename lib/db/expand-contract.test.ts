// Old and new replicas run side by side during an upgrade, so a migration may only expand the schema the previous
// release's queries read and write: every migration after the last one of the newest release in CHANGELOG.md
// is checked for statements that break them. One that must contract (drop or rename what the previous release
// still uses) goes in CONTRACTS with why it is safe: the release that stopped using the thing is already out, so
// no replica of it is left (docs/operating.md, "Upgrades").
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { MIGRATIONS_FOLDER } from "./open";

/** Migrations allowed to contract, with the reason. */
const CONTRACTS: Record<string, string> = {
  // Before this rule: 1.1.0's replicas read root_growth. CHANGELOG.md says to stop them before upgrading from it.
  "0031_kept_growth_per_workspace": "root_growth dropped; upgrading from 1.1.0 stops its replicas first",
  // An index re-created under its name with one more column: no query names an index, so the previous release's
  // replicas read through the new one (or, for the instant between the two statements, without it).
  "0041_workspaces_total_with_id": "workspaces_total_idx re-created with the id",
};

/** What the previous release's queries can trip on: gone or renamed objects, stricter or retyped columns. */
const BREAKING: [RegExp, string][] = [
  [/\bDROP\s+(TABLE|VIEW|INDEX|FUNCTION|TYPE|SEQUENCE)\b/i, "drops an object"],
  [/\bDROP\s+(COLUMN|CONSTRAINT)\b/i, "drops a column or constraint"],
  [/\bRENAME\b/i, "renames"],
  [/\bALTER\s+COLUMN\b[^;]*\b(TYPE|SET\s+NOT\s+NULL|SET\s+DATA\s+TYPE)\b/i, "retypes a column or makes it NOT NULL"],
  [/\bADD\s+COLUMN\b(?![^;]*\bDEFAULT\b)[^;]*\bNOT\s+NULL\b/i, "adds a NOT NULL column without a default"],
];

type Journal = { entries: { idx: number; tag: string }[] };
const journal = JSON.parse(fs.readFileSync(path.join(MIGRATIONS_FOLDER, "meta", "_journal.json"), "utf8")) as Journal;

/** The last migration of the newest release in CHANGELOG.md ("**Schema**: N migrations, the last `tag`"). */
function lastReleasedMigration(): string {
  const changelog = fs.readFileSync("CHANGELOG.md", "utf8");
  const released = changelog.split(/^## /m).find((s) => /^\d+\.\d+\.\d+/.test(s));
  const tag = released?.match(/\*\*Schema\*\*: (\d+) migrations, the last `([^`]+)`/);
  if (!tag) throw new Error("CHANGELOG.md: no release with its schema line");
  const entry = journal.entries.find((e) => e.tag === tag[2]);
  expect(entry?.idx, `${tag[2]} is migration number ${tag[1]}`).toBe(Number(tag[1]) - 1);
  return tag[2];
}

/** Statements without their SQL comments. */
function statements(tag: string): string[] {
  return fs
    .readFileSync(path.join(MIGRATIONS_FOLDER, `${tag}.sql`), "utf8")
    .split("--> statement-breakpoint")
    .map((s) => s.replace(/--.*$/gm, "").trim())
    .filter(Boolean);
}

describe("migrations since the last release", () => {
  const last = journal.entries.find((e) => e.tag === lastReleasedMigration())!;
  const since = journal.entries.filter((e) => e.idx > last.idx);

  it("only expand the schema, unless listed as a contract step", () => {
    const breaking = since.flatMap(({ tag }) =>
      statements(tag).flatMap((s) =>
        BREAKING.filter(([re]) => re.test(s)).map(([, what]) => `${tag}: ${what}: ${s.slice(0, 80)}`),
      ),
    );
    const unlisted = breaking.filter((b) => !(b.split(":")[0] in CONTRACTS));
    expect(unlisted).toEqual([]);
  });

  it("lists as contract steps only migrations that contract", () => {
    for (const tag of Object.keys(CONTRACTS)) {
      expect(
        journal.entries.some((e) => e.tag === tag),
        tag,
      ).toBe(true);
      expect(
        statements(tag).some((s) => BREAKING.some(([re]) => re.test(s))),
        tag,
      ).toBe(true);
    }
  });

  it("tells a breaking statement from an additive one", () => {
    const breaks = (s: string) => BREAKING.some(([re]) => re.test(s));
    expect(breaks('ALTER TABLE "t" ADD COLUMN "c" integer')).toBe(false);
    expect(breaks(`ALTER TABLE "t" ADD COLUMN "c" jsonb DEFAULT '[]'::jsonb NOT NULL`)).toBe(false);
    expect(breaks('CREATE INDEX "i" ON "t" ("c")')).toBe(false);
    expect(breaks('ALTER TABLE "t" ADD COLUMN "c" integer NOT NULL')).toBe(true);
    expect(breaks('ALTER TABLE "t" DROP COLUMN "c"')).toBe(true);
    expect(breaks('ALTER TABLE "t" RENAME COLUMN "c" TO "d"')).toBe(true);
    expect(breaks('ALTER TABLE "t" ALTER COLUMN "c" SET DATA TYPE bigint')).toBe(true);
    expect(breaks('ALTER TABLE "t" ALTER COLUMN "c" SET NOT NULL')).toBe(true);
    expect(breaks('DROP TABLE "t" CASCADE')).toBe(true);
  });
});
