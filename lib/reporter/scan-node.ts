// The fallback scanner, for machines whose find cannot -printf (busybox) or that have no find: an iterative
// readdirSync + lstatSync walk of every root.

import { childPath } from "./paths";
import { listDir, nodeEntry, startRoot, type ScanContext } from "./scan-context";

export function walkNode(ctx: ScanContext) {
  for (let i = 0; i < ctx.specs.length; i++) {
    const rootSt = startRoot(ctx, i);
    if (!rootSt?.isDirectory()) continue;
    const dev = rootSt.dev;
    const rootAbs = ctx.specs[i].abs;
    // Depth-first with an explicit stack of (folder, its names, next index): memory grows with depth × width
    // of one path, never with the tree's size.
    const names0 = listDir(ctx, i, rootAbs);
    if (!names0) continue;
    const stAbs: string[] = [rootAbs];
    const stRel: string[] = [""];
    const stNames: string[][] = [names0];
    const stIdx: number[] = [0];
    while (stAbs.length > 0) {
      const top = stAbs.length - 1;
      const names = stNames[top];
      if (stIdx[top] >= names.length) {
        stAbs.pop();
        stRel.pop();
        stNames.pop();
        stIdx.pop();
        continue;
      }
      const name = names[stIdx[top]++];
      const abs = childPath(stAbs[top], name);
      const rel = stRel[top] === "" ? name : stRel[top] + "/" + name;
      const st = nodeEntry(ctx, i, dev, abs, rel);
      if (!st) continue;
      const children = listDir(ctx, i, abs);
      if (!children || children.length === 0) continue;
      stAbs.push(abs);
      stRel.push(rel);
      stNames.push(children);
      stIdx.push(0);
    }
  }
}
