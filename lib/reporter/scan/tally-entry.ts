// What one entry, or one folder's sums from the native scanner, adds to its root's tally: sizes, categories,
// ages, depth folders, sessions, recipe units, leftovers and the largest files. The Aggregator (aggregate.ts)
// decides which root and folder an entry belongs to; these functions only count. They run once per entry of
// every scan, so they take plain arguments and allocate nothing on the common path.

import { stemOf } from "../cleanup/targets";
import type { FolderFacts } from "./folder-facts";
import type { FolderSums, TimeBins } from "./native-sums";
import { joinRel } from "./paths";
import type { RootTally, SizeAndCount } from "./root-tally";
import { groupDefault, testName } from "./rule-groups";

/** The age bucket of `mtime`; `bounds` in seconds since the epoch (an mtime after bounds[i] is in bucket i). */
export function ageOf(r: RootTally, bounds: readonly number[], mtime: number): SizeAndCount {
  return mtime > bounds[0]
    ? r.ages["1d"]
    : mtime > bounds[1]
      ? r.ages["7d"]
      : mtime > bounds[2]
        ? r.ages["30d"]
        : mtime > bounds[3]
          ? r.ages["90d"]
          : r.ages.older;
}

/** The root's own folder entry: it counts in the root's totals and as "other", never in a folder below. */
export function tallyRootFolder(
  r: RootTally,
  bounds: readonly number[],
  isDir: boolean,
  bytes: number,
  size: number,
  mtime: number,
) {
  for (let k = 0; k < r.targets.length; k++) r.targets[k].rootEntry(bytes, mtime);
  r.bytes += bytes;
  r.apparent += size;
  r.cats.other.bytes += bytes;
  ageOf(r, bounds, mtime).bytes += bytes;
  if (isDir) r.dirs++;
  else {
    r.files++;
    r.cats.other.files++;
    ageOf(r, bounds, mtime).files++;
    if (mtime < r.oldest) r.oldest = mtime;
    if (mtime > r.newest) r.newest = mtime;
  }
}

/** One entry `name` (not the root itself) of the folder described by `info`. */
export function tallyEntry(
  r: RootTally,
  bounds: readonly number[],
  info: FolderFacts,
  name: string,
  isDir: boolean,
  bytes: number,
  size: number,
  mtime: number,
) {
  r.bytes += bytes;
  r.apparent += size;
  const c = r.cats[testName(info.cat, name) ?? "other"];
  c.bytes += bytes;
  const age = ageOf(r, bounds, mtime);
  age.bytes += bytes;
  if (isDir) r.dirs++;
  else {
    r.files++;
    c.files++;
    age.files++;
    if (mtime < r.oldest) r.oldest = mtime;
    if (mtime > r.newest) r.newest = mtime;
  }

  // folders at depth 1 and 2, the whole home's to 3 (their whole size, like du)
  const depth = info.depth;
  if (info.d1 !== null) info.d1.bytes += bytes;
  if (info.d2 !== null) info.d2.bytes += bytes;
  if (info.d3 !== null) info.d3.bytes += bytes;
  if (info.deps !== null) info.deps.bytes += bytes;
  if (info.copy !== null) info.copy.bytes += bytes;
  if (isDir && r.home !== null) r.home.dirEntry(info, info.parent, name, bytes);
  if (isDir && depth < r.sizedDepth) {
    const d = r.dirSize(depth === 0 ? name : info.parent + "/" + name);
    if (d) {
      d.bytes += bytes;
      d.mtime = mtime;
    }
  }

  // sessions
  let sessionFile = false;
  /** The entry's path relative to the root, made once where something needs it (one string to hash). */
  let rel: string | null = null;
  if (info.sess !== null) {
    if (!isDir) {
      const kind = testName(info.sess, name);
      if (kind === "file") {
        sessionFile = true;
        if (r.top.wantsIn(bytes, info, name))
          r.top.add({ path: (rel ??= joinRel(info.parent, name)), bytes, mtime, type: "session" });
      } else if (kind === "file+dir") {
        sessionFile = true;
        rel ??= joinRel(info.parent, name);
        const u = r.unit(stemOf(rel));
        if (u) {
          u.filePath = rel;
          u.bytes += bytes;
          u.mtime = mtime;
        }
      }
    }
    const units = info.units;
    for (let k = 0; k < info.nUnits; k++) units[k].bytes += bytes;
    if (isDir) {
      // the entry may be a unit folder itself
      const fus = r.sessions.folderUnits;
      for (let k = 0; k < fus.length; k++) {
        const fu = fus[k];
        if (fu.depth !== depth + 1) continue;
        rel ??= joinRel(info.parent, name);
        if (!fu.re.test(rel)) continue;
        const u = r.unit(fu.kind === "dir" ? "\0" + rel : rel);
        if (!u) continue;
        u.bytes += bytes;
        if (fu.kind === "dir") u.mtime = mtime;
      }
    }
  }

  // recipe units
  const targets = r.targets;
  for (let k = 0; k < targets.length; k++) targets[k].entry(info.rec[k], info.parent, name, isDir, bytes, mtime, rel);

  if (depth === 0 && !isDir && r.leftoverNames !== null && r.leftoverNames.has(name)) {
    r.leftovers.push({ path: name, bytes, apparentBytes: size, mtime });
  }

  if (!isDir && !sessionFile && r.top.wantsIn(bytes, info, name))
    r.top.add({ path: rel ?? joinRel(info.parent, name), bytes, mtime, type: "file" });
}

/**
 * A folder's sums from the native scanner: what `tallyEntry` does for each of its entries, which no name test
 * of the root tells apart and none of which is among the largest.
 */
export function tallyFolderSums(r: RootTally, bins: TimeBins, f: FolderFacts, s: FolderSums) {
  const bytes = (s.fileBlocks + s.dirBlocks) * 512;
  r.bytes += bytes;
  r.apparent += s.fileSize + s.dirSize;
  r.files += s.files;
  r.dirs += s.dirs;
  const c = r.cats[groupDefault(f.cat) ?? "other"];
  c.bytes += bytes;
  c.files += s.files;
  for (let k = 0; k < s.bins; k++) {
    const age = r.ages[bins.bucket[s.bin[k]]];
    age.bytes += (s.binFileBlocks[k] + s.binDirBlocks[k]) * 512;
    age.files += s.binFiles[k];
  }
  if (s.files > 0) {
    if (s.oldest < r.oldest) r.oldest = s.oldest;
    if (s.newest > r.newest) r.newest = s.newest;
  }
  if (f.d1 !== null) f.d1.bytes += bytes;
  if (f.d2 !== null) f.d2.bytes += bytes;
  if (f.d3 !== null) f.d3.bytes += bytes;
  if (f.deps !== null) f.deps.bytes += bytes;
  if (f.copy !== null) f.copy.bytes += bytes;
  for (let k = 0; k < f.nUnits; k++) f.units[k].bytes += bytes;
  const targets = r.targets;
  for (let k = 0; k < targets.length; k++) targets[k].sums(f.rec[k], bytes, s.latest, s, bins.step);
}
