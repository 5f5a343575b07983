// One root's units of a "file+parts" target: a session file and the entries named by the session's id
// elsewhere in its project folder (lib/catalog/recipe-data/session-parts.ts), counted from the scan's entry
// stream like unit-tally.ts. The parts of a session are spread over folders the walk reaches in any order, so
// the session files and the parts are summed apart and put together once the walk is over: the unit the
// preview counts (bytes, newest mtime) is the one a job acts on, file and parts, and nothing else.

import type { SessionPart, SessionParts } from "@/lib/catalog/recipe-data/session-parts";
import { Glob, type PathTest } from "@/lib/catalog/globs";
import { noNeeds, type FolderSums, type Needs } from "../scan/native-sums";
import { joinRel } from "../scan/paths";
import { testName } from "../scan/rule-groups";
import { GlobMatcher } from "../scan/rules";
import type { ProtectList } from "./protect";
import type { Target } from "./target";
import type { Holder, TargetFolder } from "./target-folder";
import { DATABASE_FILE } from "./targets";
import { addTo, SettledTally } from "./settled-tally";

/** A session's files (the .json and the .jsonl of one session, or sessions sharing a short id) and parts. */
type Session = Holder & { files: string[]; parts: string[] };
type Part = Holder & { project: string; id: string; rule: SessionPart };

/** Sessions and parts counted at most (memory stays bounded on any tree). */
const MAX_ENTRIES = 200_000;
const CHAT_EXT = /\.jsonl?$/;

export class SessionPartsTally extends SettledTally {
  private readonly layout: SessionParts;
  private readonly projectRe: PathTest;
  /** The folder of the project folder that holds the session files. */
  private readonly chats: string;
  private readonly fileMatch: GlobMatcher;
  /** The project folder's own folders: never a session's part. */
  private readonly own: Set<string>;
  /** By project folder and short id (or the file's name, when it ends with no id). */
  private readonly sessions = new Map<string, Session>();
  /** By path. */
  private readonly parts = new Map<string, Part>();
  /** A subagent's id (with its project folder) to its parent session's id. */
  private readonly parents = new Map<string, string>();
  /** Sessions and parts not counted because the maps were full. */
  dropped = 0;

  constructor(
    readonly target: Target,
    rootRel: string,
    nowSec: number,
    protect: ProtectList | null,
    collect: boolean,
  ) {
    super(rootRel, nowSec, protect, collect);
    if (!target.parts) throw new Error(`${target.id}: a "file+parts" unit needs its parts`);
    this.layout = target.parts;
    const segs = target.glob.split("/");
    this.projectRe = new Glob(segs.slice(0, this.layout.projectDepth).join("/"));
    this.chats = segs[this.layout.projectDepth];
    this.fileMatch = new GlobMatcher(target.glob);
    this.own = new Set([this.chats, ...this.layout.parts.map((p) => p.folder).filter((f) => f !== "")]);
  }

  fillFolder(f: TargetFolder, parent: string, depth: number) {
    f.holder = null;
    f.files = null;
    f.dirs = null;
    f.parts = null;
    const pd = this.layout.projectDepth;
    if (depth < pd) return;
    let at = -1;
    for (let d = 0; d < pd; d++) at = parent.indexOf("/", at + 1);
    const project = at < 0 ? parent : parent.slice(0, at);
    if (!this.projectRe.test(project)) return;
    if (depth === pd) {
      f.parts = { project, folder: "", subagentsOf: null };
      return;
    }
    const [first, second] = parent.slice(project.length + 1).split("/", 2);
    if (!this.own.has(first)) {
      // a session's temporary folder, or another folder of the project folder
      const m = this.match("", first, "dir");
      if (m !== null) f.holder = this.part(project, joinRel(project, first), m.id, m.rule);
      return;
    }
    if (second === undefined) {
      f.parts = { project, folder: first, subagentsOf: null };
      if (first === this.chats) f.files = this.fileMatch.groupsFor(parent, depth);
      return;
    }
    const m = this.match(first, second, "dir");
    if (m === null) return;
    f.holder = this.part(project, `${project}/${first}/${second}`, m.id, m.rule);
    if (depth === pd + 2 && m.rule.holdsSubagents) f.parts = { project, folder: first, subagentsOf: m.id };
  }

  /**
   * Every name in the project folder and its folders, and the files of the folders inside those (subagents'
   * chats); deeper folders are summed into the part that holds them.
   */
  needs(): Needs {
    const pd = this.layout.projectDepth;
    const all = (depth: number, kind: "a" | "f") => ({ depth, kind, pre: "", suf: "", has: "" });
    return { ...noNeeds(), names: [all(pd, "a"), all(pd + 1, "a"), all(pd + 2, "f")], foldBelow: pd + 2 };
  }

  /** A folder's sums (native scanner): only a part's folders have entries the names leave out. */
  sums(f: TargetFolder, bytes: number, latest: number, _s: FolderSums, _stepOf: readonly number[]) {
    if (f.holder !== null) addTo(f.holder, bytes, latest);
  }

  /** The root itself is never part of a session. */
  rootEntry() {}

  entry(
    f: TargetFolder,
    parent: string,
    name: string,
    isDir: boolean,
    bytes: number,
    mtime: number,
    rel: string | null = null,
  ) {
    const p = f.parts;
    if (f.holder !== null) {
      addTo(f.holder, bytes, mtime);
      if (p !== null && p.subagentsOf !== null && !isDir && CHAT_EXT.test(name))
        this.parents.set(`${p.project}\0${name.replace(CHAT_EXT, "")}`, p.subagentsOf);
      return;
    }
    if (p === null) return;
    rel ??= joinRel(parent, name);
    if (!isDir && f.files !== null && testName(f.files, name) !== null && !DATABASE_FILE.test(name)) {
      const s = this.session(p.project, name);
      if (s !== null) {
        s.files.push(rel);
        addTo(s, bytes, mtime);
      }
      return;
    }
    const m = this.match(p.folder, name, isDir ? "dir" : "file");
    if (m !== null) addTo(this.part(p.project, rel, m.id, m.rule), bytes, mtime);
  }

  /**
   * One link of a file with more than one link: a session's files are not hard-linked elsewhere in practice, so
   * such a file counts with no bytes (what deleting it frees is never overstated) and its time.
   */
  link(f: TargetFolder, parent: string, name: string, _bytes: number, mtime: number) {
    this.entry(f, parent, name, false, 0, mtime);
  }

  /** Sessions with their parts, put together once the walk is over. */
  protected countSummedUnits() {
    for (const [top, part] of this.parts) {
      // a subagent's parts go with its parent session; a part whose session file is gone is no unit's
      const id = (part.rule.ofSubagents && this.parents.get(`${part.project}\0${part.id}`)) || part.id;
      const s = this.sessions.get(`${part.project}\0${id.slice(0, this.layout.idChars)}`);
      if (s === undefined) continue;
      s.parts.push(top);
      addTo(s, part.bytes, part.mtime);
    }
    for (const s of this.sessions.values()) {
      const files = s.files.sort();
      this.counts.count({ path: files[0], tops: [...files, ...s.parts.sort()], bytes: s.bytes, mtime: s.mtime });
    }
    this.sessions.clear();
    this.parts.clear();
  }

  /** The session a file named `name` belongs to: by the short id its name ends with, else on its own. */
  private session(project: string, name: string): Session | null {
    const stem = name.replace(CHAT_EXT, "");
    const short = stem !== name ? stem.slice(stem.lastIndexOf("-") + 1) : "";
    const key = `${project}\0${short.length === this.layout.idChars ? short : "\0" + name}`;
    let s = this.sessions.get(key);
    if (s === undefined) {
      if (this.full()) return null;
      s = { bytes: 0, mtime: -Infinity, files: [], parts: [] };
      this.sessions.set(key, s);
    }
    return s;
  }

  private part(project: string, top: string, id: string, rule: SessionPart): Part | null {
    let p = this.parts.get(top);
    if (p === undefined) {
      if (this.full()) return null;
      p = { bytes: 0, mtime: -Infinity, project, id, rule };
      this.parts.set(top, p);
    }
    return p;
  }

  private full(): boolean {
    if (this.sessions.size + this.parts.size < MAX_ENTRIES) return false;
    this.dropped++;
    return true;
  }

  /** The part rule an entry `name` of `folder` (in a project folder) answers, with the id its name holds. */
  private match(folder: string, name: string, kind: "file" | "dir"): { rule: SessionPart; id: string } | null {
    if (folder === "" && this.own.has(name)) return null;
    for (const rule of this.layout.parts) {
      if (rule.folder !== folder || rule.kind !== kind) continue;
      if (!name.startsWith(rule.prefix) || !name.endsWith(rule.suffix)) continue;
      const id = name.slice(rule.prefix.length, name.length - rule.suffix.length);
      if (id.length >= this.layout.idChars) return { rule, id };
    }
    return null;
  }
}
