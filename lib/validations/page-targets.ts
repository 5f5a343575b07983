// The record a page's address names, read from the path alone: the dashboard's layout looks it up before the
// page streams, so an unknown id is a real 404 (a page's own notFound() comes after the loading boundary has
// sent 200). Ids that cannot be one (a run id that is no UUID) are unknown without a lookup.
import { z } from "zod";
import { moduleKey } from "./modules";

export type PageTarget =
  | { kind: "workspace"; id: string }
  | { kind: "agent"; id: string }
  | { kind: "run"; id: string }
  | { kind: "policy"; id: string }
  | { kind: "module"; id: string }
  | { kind: "invalid" };

const PATTERNS: [RegExp, "workspace" | "agent" | "run" | "policy" | "module"][] = [
  [/^\/workspaces\/([^/]+)\/?$/, "workspace"],
  [/^\/agents\/([^/]+)\/?$/, "agent"],
  [/^\/cleanup\/runs\/([^/]+)\/?$/, "run"],
  [/^\/cleanup\/policies\/(?!new\/?$)([^/]+)\/?$/, "policy"],
  // a module root's key, "<namespace>/<module>"
  [/^\/modules\/([^/]+\/[^/]+)\/?$/, "module"],
];

const uuid = z.uuid();

/** The record `path` (with or without its query) names, or null for a page that names none. */
export function pageTarget(path: string): PageTarget | null {
  const pathname = path.split("?")[0];
  for (const [pattern, kind] of PATTERNS) {
    const m = pattern.exec(pathname);
    if (!m) continue;
    let id: string;
    try {
      id = decodeURIComponent(m[1]);
    } catch {
      return { kind: "invalid" };
    }
    if ((kind === "run" || kind === "policy") && !uuid.safeParse(id).success) return { kind: "invalid" };
    if (kind === "module") {
      const [namespace, module] = id.split("/");
      if (moduleKey(namespace, module ?? "") !== id) return { kind: "invalid" };
    }
    return { kind, id };
  }
  return null;
}
