// Where roots live, on real mounts (CI runs as root): a tmpfs under the home, a link from the home into another
// tmpfs, a home inside an overlay, a folder bound at the home as Docker binds a volume; and mountinfo lines as
// Kubernetes and Docker write them. Each mount is checked against findmnt, which reads mountinfo on its own.

import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseReport } from "@/lib/ingest/parse-report";
import { canMountTmpfs } from "@/tests/support/reporter";
import { buildReport } from "./build-report";
import { homePlacement, rootPlacement } from "./persistence";
import { mountOf, parseMountinfo } from "./mountinfo";

const NOW = new Date();
const identity = { id: "ws-1", name: "ws", owner: "alice" };

async function reportOf(home: string) {
  const r = await buildReport(
    { home: fs.realpathSync(home), identity, config: null },
    {},
    { mode: "find", native: null },
    NOW,
    () => {},
  );
  return parseReport(JSON.parse(JSON.stringify(r))); // what the server accepts
}

const findmnt = (p: string) =>
  execFileSync("findmnt", ["-n", "-o", "TARGET,FSTYPE", "--target", p], { encoding: "utf8" }).trim().split(/\s+/);

describe("mountinfo as Kubernetes and Docker write it", () => {
  // A PVC at the home (Coder's kubernetes template), an emptyDir, a Docker named and anonymous volume.
  const text = [
    "1 0 0:50 / / rw - overlay overlay rw,lowerdir=/var/lib/docker/overlay2/l/A",
    "2 1 8:1 /var/lib/kubelet/pods/u1/volumes/kubernetes.io~csi/pvc-1/mount /home/coder rw - ext4 /dev/sdb rw",
    "3 1 8:1 /var/lib/kubelet/pods/u1/volumes/kubernetes.io~empty-dir/cache /home/coder/.cache rw - ext4 /dev/sda1 rw",
    `4 1 8:1 /var/lib/docker/volumes/${"a".repeat(64)}/_data /home/coder/.codex rw - ext4 /dev/sda1 rw`,
    "5 1 8:1 /var/lib/docker/volumes/coder-abc-home/_data /home/dev rw - ext4 /dev/sda1 rw",
    "6 1 8:1 /srv/with\\040space /home/coder/odd\\040name rw - xfs /dev/sdc rw",
    "7 1 8:1 / /home/coder/caf\\303\\251 rw - xfs /dev/sdd rw",
  ].join("\n");
  const mounts = parseMountinfo(text);
  const home = mountOf(mounts, "/home/coder")!;
  const homeVerdict = homePlacement(home, "/home/coder");

  it("reads the fields and undoes the octal escapes", () => {
    expect(mounts[5]).toMatchObject({ mountPoint: "/home/coder/odd name", root: "/srv/with space", fsType: "xfs" });
    expect(mountOf(mounts, "/home/coder/odd name/x")!.id).toBe(6);
    expect(mounts[6].mountPoint).toBe("/home/coder/café"); // escaped bytes are UTF-8
  });

  it("a claimed volume at the home persists; emptyDir and anonymous volumes do not", () => {
    expect(homeVerdict).toMatchObject({ verdict: "persistent", mount: { homeVolume: true, fsType: "ext4" } });
    expect(homePlacement(mountOf(mounts, "/home/dev"), "/home/dev").verdict).toBe("persistent");
    const at = (p: string) => rootPlacement(mountOf(mounts, p), home, homeVerdict);
    expect(at("/home/coder/.cache/x")).toMatchObject({ verdict: "not-persistent", reason: /emptyDir/ });
    expect(at("/home/coder/.codex")).toMatchObject({ verdict: "not-persistent", reason: /anonymous/ });
    expect(at("/home/coder/.claude")).toMatchObject({ verdict: "persistent", mount: { homeVolume: true } });
    expect(at("/home/coder/odd name")).toMatchObject({ verdict: "unknown", mount: { homeVolume: false } });
  });

  it("a home without a volume, in the container's layer, is not persistent; elsewhere unknown", () => {
    expect(homePlacement(mountOf(mounts, "/root"), "/root")).toMatchObject({ verdict: "not-persistent" });
    expect(homePlacement(mountOf(mounts, "/home/dev/x"), "/home/dev/x").verdict).toBe("unknown");
    expect(homePlacement(null, "/home/x").verdict).toBe("unknown");
  });
});

describe.skipIf(!canMountTmpfs())("real mounts (skipped: this process may not mount)", () => {
  let base: string;
  const mounted: string[] = [];
  const mount = (...args: string[]) => {
    execFileSync("mount", args);
    mounted.unshift(args[args.length - 1]);
  };
  beforeAll(() => {
    base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "persistence-")));
  });
  afterAll(() => {
    for (const m of mounted) execFileSync("umount", [m]);
    fs.rmSync(base, { recursive: true, force: true });
  });

  it("marks a tmpfs under the home, a link into another tmpfs, and the roots on the disk", async () => {
    const home = path.join(base, "disk-home");
    const ram = path.join(base, "ram");
    fs.mkdirSync(path.join(home, ".gemini/tmp"), { recursive: true });
    fs.writeFileSync(path.join(home, ".gemini/tmp/a"), "x");
    fs.mkdirSync(path.join(home, ".codex"), { recursive: true });
    fs.mkdirSync(ram);
    mount("-t", "tmpfs", "-o", "size=4m", "tmpfs", path.join(home, ".codex"));
    mount("-t", "tmpfs", "-o", "size=4m", "tmpfs", ram);
    fs.mkdirSync(path.join(ram, "claude/projects"), { recursive: true });
    fs.symlinkSync(path.join(ram, "claude"), path.join(home, ".claude"));
    expect(findmnt(path.join(home, ".codex"))).toEqual([path.join(home, ".codex"), "tmpfs"]);
    expect(findmnt(home)[1]).toBe("ext4");

    const p = (await reportOf(home)).persistence!;
    // This machine keeps the home on its own disk at "/" with no volume at the home: a VM template.
    expect(p.home).toMatchObject({ verdict: "persistent", mount: { mountPoint: "/", homeVolume: true } });
    expect(p.roots["gemini:data"]).toMatchObject({ verdict: "persistent", mount: { homeVolume: true } });
    expect(p.roots["gemini:data"].link).toBeUndefined();
    expect(p.roots["codex:data"]).toMatchObject({
      verdict: "not-persistent",
      mount: { mountPoint: path.join(home, ".codex"), fsType: "tmpfs", homeVolume: false },
    });
    expect(p.roots["claude-code:data"]).toMatchObject({
      verdict: "not-persistent",
      mount: { mountPoint: ram, fsType: "tmpfs" },
      link: { path: ".claude", target: path.join(ram, "claude") },
    });
  });

  it("marks a home inside an overlay, and a folder bound at the home as a volume", async () => {
    const lower = path.join(base, "lower");
    const upper = path.join(base, "upper");
    const work = path.join(base, "work");
    const merged = path.join(base, "merged");
    for (const d of [lower, upper, work, merged]) fs.mkdirSync(d);
    fs.mkdirSync(path.join(lower, "home/coder/.codex/sessions"), { recursive: true });
    mount("-t", "overlay", "overlay", "-o", `lowerdir=${lower},upperdir=${upper},workdir=${work}`, merged);
    const home = path.join(merged, "home/coder");
    expect(findmnt(home)).toEqual([merged, "overlay"]);
    const p = (await reportOf(home)).persistence!;
    expect(p.home).toMatchObject({ verdict: "not-persistent", mount: { fsType: "overlay", mountPoint: merged } });
    expect(p.roots["codex:data"]).toMatchObject({ verdict: "not-persistent", mount: { homeVolume: true } });

    // Docker binds a volume's folder at the home: the same mount as a bind of a folder.
    const volume = path.join(base, "volume");
    const boundHome = path.join(base, "bound-home");
    fs.mkdirSync(path.join(volume, ".codex"), { recursive: true });
    fs.mkdirSync(boundHome);
    mount("--bind", volume, boundHome);
    const q = (await reportOf(boundHome)).persistence!;
    expect(q.home).toMatchObject({ verdict: "persistent", reason: "a volume mounted at the home" });
    expect(q.home.mount).toMatchObject({ mountPoint: boundHome, root: volume, fsType: "ext4" });
    expect(q.roots["codex:data"].verdict).toBe("persistent");
  });
});
