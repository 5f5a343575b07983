import { millisecondsInDay as DAY } from "date-fns/constants";
import type { AgeBucket, Category, RootKind } from "@/lib/report/constants";
import type { LargestEntry, StorageRoot } from "@/lib/report/schema";
import type { Random } from "./random";
import { demoRecipeUsage, type Deposit } from "./recipes";

export const MiB = 1024 * 1024;

/** How one simulated root grows: bytes a day, in which categories, and the events that shape it. */
export type RootProfile = {
  key: string;
  kind: RootKind;
  agent: string;
  path: string;
  /** Mean bytes added on an active day. */
  dailyBytes: number;
  /** Share of added bytes per category. */
  mix: Partial<Record<Category, number>>;
  /** Bytes of one typical file. */
  fileBytes: number;
  /** Chance per day of a burst (a huge Gemini session, a Codex sub-agent storm). */
  burstChance?: number;
  burstBytes?: number;
  /** Chance per day that the user (or the agent's own retention) deletes everything older than 30 days. */
  cleanupChance?: number;
  orphaned?: boolean;
  /** Claude-style: the largest entries are sessions (a .jsonl and its folder). */
  sessions?: boolean;
  /** Stops growing after this many days (an orphaned script-data folder). */
  growthDays?: number;
  /** AgentAPI files left in the folder: counted in the root like any file, and listed. */
  leftovers?: { path: string; bytes: number; apparentBytes: number }[];
};

/** A root's simulated contents: deposits of bytes at times, so age buckets and cleanups come out right. */
export class SimulatedRoot {
  private deposits: Deposit[] = [];
  private age = 0;
  private largest: LargestEntry[] = [];
  private orphaned: boolean | undefined;
  constructor(readonly profile: RootProfile, private readonly rnd: Random) {
    this.orphaned = profile.orphaned;
  }

  /** The folder is no longer the workspace's current one (script data after a restart). */
  orphan() {
    this.orphaned = true;
  }

  /** Advances one day ending at `now`. */
  step(now: number, activity: number) {
    const p = this.profile;
    this.age++;
    if (p.growthDays !== undefined && this.age > p.growthDays) return;
    let added = p.dailyBytes * activity * this.rnd.between(0.2, 1.8);
    if (p.burstChance && this.rnd.chance(p.burstChance)) added += (p.burstBytes ?? 0) * this.rnd.between(0.5, 1.5);
    for (const [category, share] of Object.entries(p.mix) as [Category, number][]) {
      const bytes = Math.round(added * share);
      if (bytes <= 0) continue;
      const files = Math.max(1, Math.round(bytes / p.fileBytes));
      this.deposits.push({ at: now - this.rnd.between(0, DAY - 1), bytes, files, category });
      if (category === "sessions" || category === "logs" || this.largest.length < 5) this.noteEntry(now, bytes, category);
    }
    if (p.cleanupChance && this.rnd.chance(p.cleanupChance)) {
      this.deposits = this.deposits.filter((d) => d.at > now - 30 * DAY);
      this.largest = this.largest.filter((e) => Date.parse(e.mtime) > now - 30 * DAY);
    }
  }

  private noteEntry(now: number, bytes: number, category: Category) {
    const p = this.profile;
    const id = this.rnd.uuid();
    const entry: LargestEntry = p.sessions && category === "sessions"
      ? { path: `projects/-home-coder-${this.rnd.pick(["app", "api", "infra", "web"])}/${id}.jsonl`, bytes, mtime: new Date(now).toISOString(), type: "session" }
      : category === "logs" && p.sessions
        ? { path: `debug/${id}.txt`, bytes, mtime: new Date(now).toISOString(), type: "file" }
        : { path: `${category}/${id.slice(0, 8)}`, bytes, mtime: new Date(now).toISOString(), type: "file" };
    this.largest.push(entry);
    this.largest.sort((a, b) => b.bytes - a.bytes);
    this.largest.length = Math.min(this.largest.length, 20);
  }

  get exists() {
    return this.deposits.length > 0;
  }

  /** The root as the reporter would measure it at `now`. */
  measure(now: number): StorageRoot {
    const p = this.profile;
    const categories: Partial<Record<Category, { bytes: number; files: number }>> = {};
    const ages: Partial<Record<AgeBucket, { bytes: number; files: number }>> = {};
    let bytes = 0, files = 0, oldest = Infinity, newest = 0;
    for (const d of this.deposits) {
      bytes += d.bytes;
      files += d.files;
      oldest = Math.min(oldest, d.at);
      newest = Math.max(newest, d.at);
      const c = (categories[d.category] ??= { bytes: 0, files: 0 });
      c.bytes += d.bytes;
      c.files += d.files;
      const days = (now - d.at) / DAY;
      const bucket: AgeBucket = days < 1 ? "1d" : days < 7 ? "7d" : days < 30 ? "30d" : days < 90 ? "90d" : "older";
      const a = (ages[bucket] ??= { bytes: 0, files: 0 });
      a.bytes += d.bytes;
      a.files += d.files;
    }
    // Allocation rounds every file up to 4 KiB blocks: allocated exceeds apparent a little.
    let allocated = bytes + files * 2048;
    // Leftovers date from before the simulation: old, and in the root's figures like every other file.
    const leftovers = (p.leftovers ?? []).map((l) => ({ ...l, mtime: new Date(now - 200 * DAY).toISOString() }));
    for (const l of leftovers) {
      oldest = Math.min(oldest, Date.parse(l.mtime));
      allocated += l.bytes;
      bytes += l.apparentBytes;
      files += 1;
      const o = (ages.older ??= { bytes: 0, files: 0 });
      o.bytes += l.apparentBytes;
      o.files += 1;
      const c = (categories.other ??= { bytes: 0, files: 0 });
      c.bytes += l.apparentBytes;
      c.files += 1;
    }
    return {
      key: p.key,
      kind: p.kind,
      agent: p.agent,
      path: p.path,
      bytes: allocated,
      apparentBytes: bytes,
      files,
      dirs: Math.max(1, Math.round(files / 12)),
      oldestMtime: Number.isFinite(oldest) ? new Date(oldest).toISOString() : null,
      newestMtime: newest ? new Date(newest).toISOString() : null,
      categories,
      ages,
      largest: this.largest.filter((e) => Date.parse(e.mtime) <= now),
      ...(leftovers.length ? { leftovers } : {}),
      recipes: demoRecipeUsage({ key: p.key, kind: p.kind, orphaned: this.orphaned }, this.deposits, leftovers, now),
      ...(this.orphaned !== undefined ? { orphaned: this.orphaned } : {}),
    };
  }
}
