// Where the home and each root live and whether that survives a restart. A folder's storage is the mount that
// holds it after its symbolic links are resolved. In Coder's Docker and Kubernetes templates the home is a volume
// (a Docker volume, or a PersistentVolumeClaim) mounted at /home/<user>, and the rest of the container is its
// writable overlay layer, which is gone when the workspace stops; tmpfs and ramfs are memory. A VM template keeps
// the home on the machine's own disk. What these rules cannot place is "unknown", never a guess.

import fs from "node:fs";
import path from "node:path";
import type { MountFacts, Persistence, Placement } from "@/lib/report-format/persistence";
import { readAgentapiStates } from "./agentapi-state";
import { mountOf, readMounts, type Mount } from "./mountinfo";
import { isInside } from "./paths";

/** File systems that live only as long as the container or the machine's memory. */
const VOLATILE_FS: Record<string, string> = {
  overlay: "the container's writable layer (overlay) is lost when the workspace stops",
  tmpfs: "tmpfs is memory, lost at every stop",
  ramfs: "ramfs is memory, lost at every stop",
  squashfs: "squashfs is a read-only image: what is written over it is lost at every stop",
};
/** File systems of a disk: at "/" with no volume at the home, the machine's own disk (a VM template). */
const DISK_FS = new Set(["ext4", "xfs", "btrfs"]);
/** kubelet mounts an emptyDir from the node's disk; it is deleted with the pod. */
const EMPTY_DIR = "kubernetes.io~empty-dir";
/** A Docker volume without a name is a 64-hex folder under volumes/; a new container gets a new one. */
const DOCKER_ANONYMOUS = /(^|\/)volumes\/[0-9a-f]{64}\/_data$/;

/** The verdict on the mount itself, or null when it takes the mount's place to decide (home, root disk). */
function volatile(m: Mount): Placement["verdict"] | null {
  if (m.fsType in VOLATILE_FS || m.root.includes(EMPTY_DIR) || DOCKER_ANONYMOUS.test(m.root)) return "not-persistent";
  return null;
}

function volatileReason(m: Mount): string {
  if (m.fsType in VOLATILE_FS) return VOLATILE_FS[m.fsType];
  if (m.root.includes(EMPTY_DIR)) return "a Kubernetes emptyDir, deleted with the pod";
  return "a Docker anonymous volume: the next container gets a new, empty one";
}

const facts = (m: Mount, home: Mount | null): MountFacts => ({
  mountPoint: m.mountPoint,
  fsType: m.fsType,
  source: m.source,
  root: m.root,
  homeVolume: home !== null && m.id === home.id,
});

/** The home's placement: a volume at the home, or the machine's own disk at "/", persists. */
export function homePlacement(m: Mount | null, home: string): Placement {
  if (!m) return { mount: null, verdict: "unknown", reason: "mountinfo could not be read" };
  const mount = facts(m, m);
  if (volatile(m)) return { mount, verdict: "not-persistent", reason: volatileReason(m) };
  if (m.mountPoint === home) return { mount, verdict: "persistent", reason: "a volume mounted at the home" };
  if (m.mountPoint === "/" && DISK_FS.has(m.fsType))
    return { mount, verdict: "persistent", reason: `the machine's own disk (${m.fsType} at /)` };
  return { mount, verdict: "unknown", reason: `${m.fsType} mounted at ${m.mountPoint}: not a volume at the home` };
}

/** A root's placement: on the home's mount it shares the home's verdict; on a mount of its own, that mount's. */
export function rootPlacement(m: Mount | null, homeMount: Mount | null, homeVerdict: Placement): Placement {
  if (!m) return { mount: null, verdict: "unknown", reason: "mountinfo could not be read" };
  const mount = facts(m, homeMount);
  if (mount.homeVolume) return { mount, verdict: homeVerdict.verdict, reason: "on the home's volume" };
  if (volatile(m)) return { mount, verdict: "not-persistent", reason: volatileReason(m) };
  return { mount, verdict: "unknown", reason: `a mount of its own (${m.fsType} at ${m.mountPoint})` };
}

function realOf(abs: string): string | null {
  try {
    return fs.realpathSync(abs);
  } catch {
    return null;
  }
}

/** The first symbolic link on the way from the home to `abs` that leads off the home's mount, with its target. */
function linkOff(home: string, abs: string, mounts: readonly Mount[], homeMount: Mount | null) {
  let cur = home;
  for (const part of path.relative(home, abs).split(path.sep)) {
    cur = path.join(cur, part);
    let isLink = false;
    try {
      isLink = fs.lstatSync(cur).isSymbolicLink();
    } catch {
      return undefined;
    }
    if (!isLink) continue;
    const target = realOf(cur);
    if (target && mountOf(mounts, target)?.id !== homeMount?.id) return { path: path.relative(home, cur), target };
  }
  return undefined;
}

/** The persistence facts of a report: the home (its real path) and the roots, by key and absolute path. */
export function readPersistence(
  home: string,
  roots: readonly { key: string; abs: string }[],
  mountinfoFile?: string,
): Omit<Persistence, "agentapi"> {
  const mounts = readMounts(mountinfoFile) ?? [];
  const homeMount = mountOf(mounts, home);
  const homePlaced = homePlacement(homeMount, home);
  const out: Record<string, Placement> = {};
  for (const r of roots) {
    const real = realOf(r.abs) ?? r.abs;
    const placed = rootPlacement(mountOf(mounts, real), homeMount, homePlaced);
    const link =
      !placed.mount?.homeVolume && isInside(r.abs, home) ? linkOff(home, r.abs, mounts, homeMount) : undefined;
    out[r.key] = link ? { ...placed, link } : placed;
  }
  return { home: homePlaced, roots: out };
}

/** The report's persistence facts for the roots it lists (`keys`), AgentAPI's state files among them. */
export function reportPersistence(
  home: string,
  specs: readonly { key: string; kind: string; abs: string }[],
  keys: readonly { key: string }[],
): Persistence {
  const listed = new Set(keys.map((k) => k.key));
  const roots = specs.filter((s) => listed.has(s.key));
  const agentapi = readAgentapiStates(home, roots);
  return { ...readPersistence(home, roots), ...(agentapi.length ? { agentapi } : {}) };
}
