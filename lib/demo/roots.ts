import { millisecondsInDay as DAY } from "date-fns/constants";
import type { AgeBucket, Category, RootKind } from "@/lib/report-format/constants";
import type { LargestEntry, StorageRoot } from "@/lib/report-format/schema";
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
  /** Stops growing after this many days (an orphaned script-data folder). */
  growthDays?: number;
  /** AgentAPI files left in the folder: counted in the root like any file, and listed. */
  leftovers?: { path: string; bytes: number; apparentBytes: number }[];
};

/**
 * A session of each agent whose sessions the catalog knows, where the agent writes it (matching the catalog's
 * session rule, so the reporter would list it as a session): Claude Code's `<uuid>.jsonl`, Codex's dated
 * rollouts, Gemini's chats, Copilot's session folders, Cursor's chat folders.
 */
const SESSION_PATHS: Record<string, (id: string, day: string, rnd: Random) => string> = {
  "claude-code": (id, _day, rnd) => `projects/-home-coder-${rnd.pick(["app", "api", "infra", "web"])}/${id}.jsonl`,
  codex: (id, day) => `sessions/${day.replaceAll("-", "/")}/rollout-${day}T10-00-00-${id}.jsonl`,
  gemini: (id, day) => `tmp/${id.replaceAll("-", "").slice(0, 16)}/chats/session-${day}T10-00-${id.slice(0, 8)}.json`,
  copilot: (id) => `session-state/${id}`,
  cursor: (id) => `chats/${id.slice(0, 8)}/${id}`,
};

/** Room on a disk, or what a root takes of it: allocated bytes and inodes. */
export type Room = { bytes: number; inodes: number };

/** Allocation rounds every file up to 4 KiB blocks: allocated exceeds apparent by about half a block a file. */
const allocated = (bytes: number, files: number) => bytes + files * 2048;
/** A root's folders: about one for every 12 files. */
const folders = (files: number) => Math.max(1, Math.round(files / 12));

/** A root's simulated contents: deposits of bytes at times, so age buckets and cleanups come out right. */
export class SimulatedRoot {
  private deposits: Deposit[] = [];
  /** The deposits' allocated bytes and files, kept as they change: the disk's room is asked after every write. */
  private held = { bytes: 0, files: 0 };
  private age = 0;
  private largest: LargestEntry[] = [];
  private orphaned: boolean | undefined;
  constructor(
    readonly profile: RootProfile,
    private readonly rnd: Random,
  ) {
    this.orphaned = profile.orphaned;
  }

  /** The folder is no longer the workspace's current one (script data after a restart). */
  orphan() {
    this.orphaned = true;
  }

  /**
   * Advances one day ending at `now`, writing no more than `room`: on a full disk writes fail, so a root never
   * holds more than its volume's Used.
   */
  step(now: number, activity: number, room: Room) {
    const p = this.profile;
    this.age++;
    if (p.growthDays !== undefined && this.age > p.growthDays) return;
    let added = p.dailyBytes * activity * this.rnd.between(0.2, 1.8);
    if (p.burstChance && this.rnd.chance(p.burstChance)) added += (p.burstBytes ?? 0) * this.rnd.between(0.5, 1.5);
    const start = this.usage();
    for (const [category, share] of Object.entries(p.mix) as [Category, number][]) {
      let bytes = Math.round(added * share);
      if (bytes <= 0) continue;
      let files = Math.max(1, Math.round(bytes / p.fileBytes));
      const sofar = this.usage();
      const left = {
        bytes: room.bytes - (sofar.bytes - start.bytes),
        inodes: room.inodes - (sofar.inodes - start.inodes),
      };
      // What does not fit is cut (a write that fails part way); the rounding of folders is left a margin.
      const fit = Math.min(1, left.bytes / allocated(bytes, files), (left.inodes - 2) / (files * 1.1));
      bytes = Math.floor(bytes * fit);
      files = Math.floor(files * fit);
      if (bytes < 1 || files < 1) break;
      this.deposit({ at: now - this.rnd.between(0, DAY - 1), bytes, files, category }, 1);
      const after = this.usage();
      if (after.bytes - start.bytes > room.bytes || after.inodes - start.inodes > room.inodes) {
        this.deposit(this.deposits.pop()!, -1); // the first file of a root with leftovers brings them in too
        break;
      }
      if (category === "sessions" || category === "logs" || this.largest.length < 5)
        this.noteEntry(now, bytes, category);
    }
    if (p.cleanupChance && this.rnd.chance(p.cleanupChance)) {
      for (const d of this.deposits.filter((d) => d.at <= now - 30 * DAY)) this.deposit(d, -1);
      this.deposits = this.deposits.filter((d) => d.at > now - 30 * DAY);
      this.largest = this.largest.filter((e) => Date.parse(e.mtime) > now - 30 * DAY);
    }
  }

  /** Adds a deposit (sign 1; it is pushed) or counts one out (sign -1; the caller removed it). */
  private deposit(d: Deposit, sign: 1 | -1) {
    if (sign === 1) this.deposits.push(d);
    this.held.bytes += sign * allocated(d.bytes, d.files);
    this.held.files += sign * d.files;
  }

  private noteEntry(now: number, bytes: number, category: Category) {
    const p = this.profile;
    const id = this.rnd.uuid();
    const mtime = new Date(now).toISOString();
    const session = SESSION_PATHS[p.agent];
    const entry: LargestEntry =
      category === "sessions" && p.kind === "tool" && session
        ? { path: session(id, mtime.slice(0, 10), this.rnd), bytes, mtime, type: "session" }
        : category === "logs" && p.agent === "claude-code" && p.kind === "tool"
          ? { path: `debug/${id}.txt`, bytes, mtime, type: "file" }
          : { path: `${category}/${id.slice(0, 8)}`, bytes, mtime, type: "file" };
    this.largest.push(entry);
    this.largest.sort((a, b) => b.bytes - a.bytes);
    this.largest.length = Math.min(this.largest.length, 20);
  }

  get exists() {
    return this.deposits.length > 0;
  }

  /** What the root takes on the disk: the bytes and inodes measure() reports (nothing while it does not exist). */
  usage(): Room {
    if (!this.exists) return { bytes: 0, inodes: 0 };
    const leftovers = this.profile.leftovers ?? [];
    const files = this.held.files + leftovers.length;
    return { bytes: this.held.bytes + leftovers.reduce((s, l) => s + l.bytes, 0), inodes: files + folders(files) };
  }

  /** The root as the reporter would measure it at `now`. */
  measure(now: number): StorageRoot {
    const p = this.profile;
    const categories: Partial<Record<Category, { bytes: number; files: number }>> = {};
    const ages: Partial<Record<AgeBucket, { bytes: number; files: number }>> = {};
    let bytes = 0,
      files = 0,
      oldest = Infinity,
      newest = 0;
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
    const usage = this.usage();
    // Leftovers date from before the simulation: old, and in the root's figures like every other file.
    const leftovers = (p.leftovers ?? []).map((l) => ({ ...l, mtime: new Date(now - 200 * DAY).toISOString() }));
    for (const l of leftovers) {
      oldest = Math.min(oldest, Date.parse(l.mtime));
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
      bytes: usage.bytes,
      apparentBytes: bytes,
      files,
      dirs: folders(files),
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
