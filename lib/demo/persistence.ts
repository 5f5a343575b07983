// Where the demo fleet's homes and roots live, as each template mounts them: Docker templates bind a named volume
// at the home, Kubernetes ones a PersistentVolumeClaim, VM templates keep it on the machine's own disk. Two
// templates show what a restart loses: "docker-ephemeral" forgot the home volume (the home is in the container's
// overlay layer), and "codex-ramdisk" links ~/.codex into /dev/shm to make Codex faster.

import type { MountFacts, Persistence, Placement } from "@/lib/report-format/persistence";
import type { StorageRoot, WorkspaceIdentity } from "@/lib/report-format/schema";

export const EPHEMERAL_TEMPLATE = "docker-ephemeral";
export const RAMDISK_TEMPLATE = "codex-ramdisk";
const HOME = "/home/coder";

function homeMount(ws: WorkspaceIdentity): MountFacts {
  const at = (fsType: string, mountPoint: string, source: string, root: string): MountFacts => ({
    mountPoint,
    fsType,
    source,
    root,
    homeVolume: true,
  });
  switch (ws.template) {
    case EPHEMERAL_TEMPLATE:
      return at("overlay", "/", "overlay", "/");
    case "docker-claude":
    case "minimal":
      return at("ext4", HOME, "/dev/nvme0n1p1", `/var/lib/docker/volumes/coder-${ws.id}-home/_data`);
    case "ai-dev":
    case "gpu-ml":
      return at("ext4", "/", "/dev/nvme0n1p1", "/");
    default:
      return at("ext4", HOME, "/dev/rbd0", "/");
  }
}

const REASONS: Record<string, string> = {
  overlay: "the container's writable layer (overlay) is lost when the workspace stops",
  [HOME]: "a volume mounted at the home",
  "/": "the machine's own disk (ext4 at /)",
};

/** The persistence facts of one report of `ws` with `roots`, as the reporter would find them. */
export function demoPersistence(ws: WorkspaceIdentity, roots: readonly StorageRoot[]): Persistence {
  const mount = homeMount(ws);
  const lost = mount.fsType === "overlay";
  const home: Placement = {
    mount,
    verdict: lost ? "not-persistent" : "persistent",
    reason: REASONS[lost ? "overlay" : mount.mountPoint],
  };
  const placed: Persistence["roots"] = {};
  for (const r of roots) {
    placed[r.key] =
      ws.template === RAMDISK_TEMPLATE && r.key === "codex:data"
        ? {
            mount: { mountPoint: "/dev/shm", fsType: "tmpfs", source: "tmpfs", root: "/", homeVolume: false },
            verdict: "not-persistent",
            reason: "tmpfs is memory, lost at every stop",
            link: { path: ".codex", target: "/dev/shm/codex" },
          }
        : { mount, verdict: home.verdict, reason: "on the home's volume" };
  }
  return { home, roots: placed };
}

/**
 * Moves a few workspaces onto the two templates that lose data: every 15th onto the one without a home volume,
 * and every 4th of those with a Codex folder onto the RAM-disk one. Done after the fleet is drawn, so the rest of
 * the fleet stays as it was.
 */
export function assignRestartTemplates(fleet: readonly { identity: WorkspaceIdentity; hasCodex: boolean }[]) {
  let codex = 0;
  fleet.forEach((ws, i) => {
    if (i % 15 === 7) ws.identity.template = EPHEMERAL_TEMPLATE;
    else if (ws.hasCodex && codex++ % 4 === 1) ws.identity.template = RAMDISK_TEMPLATE;
  });
}
