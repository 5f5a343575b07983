// What the entries of one folder have in common, worked out once per folder rather than once per entry: which
// category and session rules can apply there, and the folders at depth 1 to 3 and session folders whose
// sizes its entries add to.

import type { Category } from "@/lib/report-format/constants";
import { emptyTargetFolder, type TargetFolder } from "../cleanup/target-folder";
import type { TargetTally } from "../cleanup/target-tally";
import type { HomeFacts, HomeTally } from "./home-tally";
import { within } from "./paths";
import type { Group } from "./rule-groups";
import type { CategoryMatcher, SessionMatcher, SessionUnitKind } from "./rules";
import type { DirSize, Unit } from "./sizes";
import type { TieCache } from "./top-n";

/** What the facts are worked out from: the root's tally (RootTally). */
export type FolderFactsSource = {
  readonly category: CategoryMatcher;
  readonly sessions: SessionMatcher;
  readonly targets: readonly TargetTally[];
  /** Folders this many segments deep and less are sized on their own (2; the whole home: 3). */
  readonly sizedDepth: number;
  readonly home: HomeTally | null;
  dirSize(key: string): DirSize | null;
  unit(key: string): Unit | null;
};

/** The shared facts of the folder `parent` (relative to the root, "" for the root itself). */
export type FolderFacts = TieCache &
  HomeFacts & {
    /** Segments in parent (0 for the root itself). */
    depth: number;
    cat: Group<Category>[];
    sess: Group<SessionUnitKind>[] | null;
    /** The folders at depth 1, 2 and 3 that hold the entries (null when parent is not that deep, or not sized). */
    d1: DirSize | null;
    d2: DirSize | null;
    d3: DirSize | null;
    /** Session folder units that hold the entries. */
    units: Unit[];
    /**
     * How many of `units` hold the entries (the rest are left from an earlier folder: emptying the array would
     * let V8 drop its storage and allocate it again for the next folder).
     */
    nUnits: number;
    /** Per target of the root (recipe units): what its entries need. */
    rec: TargetFolder[];
    /** For the least-recently-used replacement. */
    used: number;
  };

const SLOTS = 24;
export const emptyFacts = (): FolderFacts => ({
  parent: "\0",
  depth: 0,
  cat: [],
  sess: null,
  d1: null,
  d2: null,
  d3: null,
  deps: null,
  copy: null,
  known: false,
  units: [],
  nUnits: 0,
  rec: [],
  tieVersion: -1,
  tieCmp: 0,
  tieTail: "",
  used: 0,
});

/**
 * One root's folder facts, in a few reused objects, least recently used replaced first. Entries arrive folder
 * by folder, depth first, so only the folders on the current path come back. Allocating facts per folder made
 * objects that outlive a young-generation collection, and V8 then grows the young generation (the larger part
 * of the process's peak memory).
 */
export class FolderFactsCache {
  private lastParent: string | null = null;
  private last: FolderFacts | null = null;
  private readonly slots: FolderFacts[] = [];
  /** The slots by folder: one hash of a new folder's path rather than a comparison with every slot's. */
  private readonly byParent = new Map<string, FolderFacts>();
  private clock = 0;
  /**
   * What was last worked out for a path prefix (depth-1 and depth-2 folders, each session folder unit's
   * folder): the folders below it arrive next (depth first) and share it, with no slice, regex or map lookup.
   */
  private d1Key = "\0";
  private d1: DirSize | null = null;
  private d2Key = "\0";
  private d2: DirSize | null = null;
  private d3Key = "\0";
  private d3: DirSize | null = null;
  private readonly unitKeys: string[] = [];
  private readonly unitOf: (Unit | null)[] = [];

  constructor(private readonly root: FolderFactsSource) {}

  of(parent: string): FolderFacts {
    if (parent === this.lastParent) return this.last!;
    let info = this.byParent.get(parent);
    if (info === undefined) {
      const slots = this.slots;
      if (slots.length < SLOTS) {
        info = emptyFacts();
        slots.push(info);
      } else {
        info = slots[0];
        for (let k = 1; k < slots.length; k++) if (slots[k].used < info.used) info = slots[k];
        this.byParent.delete(info.parent);
      }
      this.fill(info, parent);
      this.byParent.set(parent, info);
    }
    info.used = ++this.clock;
    this.lastParent = parent;
    this.last = info;
    return info;
  }

  /**
   * Fills `info` with the facts of the folder `parent`. A reader that knows when its folder changes (the
   * native scanner's, which is told each folder once) keeps its own object and calls this, with no lookup.
   * `up`: the facts of the folder's own parent where the reader has them: the rules that cannot tell a folder
   * from its parent (RuleSets.inherits) are taken from there, with no test of the folder's path.
   */
  fill(info: FolderFacts, parent: string, up: FolderFacts | null = null) {
    const r = this.root;
    let depth = 0;
    let i1 = -1;
    let i2 = -1;
    let i3 = -1;
    if (parent !== "") {
      depth = 1;
      for (let i = parent.indexOf("/"); i >= 0; i = parent.indexOf("/", i + 1)) {
        if (depth === 1) i1 = i;
        else if (depth === 2) i2 = i;
        else if (depth === 3) i3 = i;
        depth++;
      }
    }
    const units = info.units;
    let nUnits = 0;
    if (!r.sessions.empty) {
      const fus = r.sessions.folderUnits;
      for (let k = 0; k < fus.length; k++) {
        const fu = fus[k];
        if (depth < fu.depth) continue;
        if (this.unitKeys[k] === undefined || !within(parent, this.unitKeys[k])) {
          let at = -1;
          for (let d = 0; d < fu.depth; d++) at = parent.indexOf("/", at + 1);
          const prefix = at < 0 ? parent : parent.slice(0, at);
          this.unitKeys[k] = prefix;
          this.unitOf[k] = fu.re.test(prefix) ? r.unit(fu.kind === "dir" ? "\0" + prefix : prefix) : null;
        }
        const u = this.unitOf[k];
        if (u) units[nUnits++] = u;
      }
    }
    info.nUnits = nUnits;
    const own = up !== null ? parent.slice(parent.lastIndexOf("/") + 1) : "";
    const targets = r.targets;
    for (let k = 0; k < targets.length; k++) {
      const f = info.rec[k] ?? (info.rec[k] = emptyTargetFolder());
      targets[k].fillFolder(f, parent, depth, up !== null ? up.rec[k] : null, own);
    }
    if (depth >= 1 && !within(parent, this.d1Key)) {
      this.d1Key = i1 < 0 ? parent : parent.slice(0, i1);
      this.d1 = r.dirSize(this.d1Key);
    }
    if (depth >= 2 && !within(parent, this.d2Key)) {
      this.d2Key = i2 < 0 ? parent : parent.slice(0, i2);
      this.d2 = r.dirSize(this.d2Key);
    }
    const sized3 = r.sizedDepth >= 3 && depth >= 3;
    if (sized3 && !within(parent, this.d3Key)) {
      this.d3Key = i3 < 0 ? parent : parent.slice(0, i3);
      this.d3 = r.dirSize(this.d3Key);
    }
    if (r.home !== null) r.home.fill(info, parent);
    info.parent = parent;
    info.depth = depth;
    info.cat = up !== null && r.category.inherits(depth, own) ? up.cat : r.category.groupsFor(parent, depth);
    info.sess = r.sessions.empty
      ? null
      : up !== null && up.sess !== null && r.sessions.inherits(depth, own)
        ? up.sess
        : r.sessions.groupsFor(parent, depth);
    info.d1 = depth >= 1 ? this.d1 : null;
    info.d2 = depth >= 2 ? this.d2 : null;
    info.d3 = sized3 ? this.d3 : null;
    info.tieVersion = -1;
    info.tieCmp = 0;
    info.tieTail = "";
  }
}
