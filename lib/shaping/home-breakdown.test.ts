import { expect, it } from "vitest";
import type { VolumeSummary } from "@/lib/format/volume";
import { homeUsage } from "@/tests/support/home";
import { GiB, MiB } from "@/tests/support/reports";
import { fleetSplitOf, homeSplit } from "./home-breakdown";

const VOLUME: VolumeSummary = {
  sizeBytes: 20 * GiB,
  usedBytes: 19 * GiB,
  availBytes: 20 * GiB - 19 * GiB - 512 * MiB, // 512 MiB reserved for root
  usePercent: 98,
  inodes: null,
  full: true,
  inodesFull: false,
};

it("explains every byte of df's Used, the reserved blocks beside it", () => {
  const s = homeSplit(VOLUME, homeUsage());
  expect(s.lines.reduce((sum, l) => sum + l.bytes, 0)).toBe(VOLUME.usedBytes);
  expect(Object.fromEntries(s.lines.map((l) => [l.key, l.bytes]))).toEqual({
    agents: 5 * GiB,
    modules: 512 * MiB,
    roots: 512 * MiB,
    "package-cache": 4 * GiB,
    "project-deps": 3 * GiB,
    "ide-server": 2 * GiB,
    containers: 1 * GiB,
    rest: 2 * GiB,
    "deleted-open": 256 * MiB,
    outside: 19 * GiB - 18 * GiB - 256 * MiB,
  });
  expect(s.reserved).toBe(512 * MiB);
});

it("has no outside line without a volume, and splits a home for the fleet", () => {
  expect(homeSplit(null, homeUsage()).lines.some((l) => l.key === "outside")).toBe(false);
  const f = fleetSplitOf(homeUsage());
  expect(f).toEqual({ agents: 5 * GiB, modules: 512 * MiB, caches: 4 * GiB, projects: 3 * GiB, other: 5.5 * GiB });
  expect(f.agents + f.modules + f.caches + f.projects + f.other).toBe(homeUsage().bytes);
});

it("gives what a mount hides its own line where the reporter measured it, and names it where it did not", () => {
  const unmeasured = homeSplit(VOLUME, homeUsage()).lines.find((l) => l.key === "outside")!;
  expect(unmeasured.label).toBe("Outside the home, and what no walk sees");
  expect(unmeasured.note).toMatch(/files hidden under ~\/scratch \(measured only by a reporter running as root\)/);
  const s = homeSplit(VOLUME, homeUsage({ hiddenUnderMounts: 100 * MiB }));
  expect(s.lines.reduce((sum, l) => sum + l.bytes, 0)).toBe(VOLUME.usedBytes);
  const byKey = new Map(s.lines.map((l) => [l.key, l]));
  expect(byKey.get("hidden-under-mounts")?.bytes).toBe(100 * MiB);
  expect(byKey.get("hidden-under-mounts")?.note).toMatch(/~\/scratch/);
  expect(byKey.get("outside")).toMatchObject({
    label: "Outside the home, and file system metadata",
    bytes: 19 * GiB - 18 * GiB - 256 * MiB - 100 * MiB,
  });
  expect(byKey.get("outside")?.note).not.toMatch(/hidden/);
  // no mount inside the home: nothing can hide there, and the line says so by leaving it out
  const none = homeSplit(VOLUME, homeUsage({ mounts: undefined })).lines.find((l) => l.key === "outside")!;
  expect(none.label).toBe("Outside the home, and file system metadata");
});
