// How the cleanup form reads a workspace typed by name. Admins know workspaces as Coder shows them
// ("billing-yara-39", or "yara/billing-yara-39" where two owners use one name), not by id; the form looks the
// typed text up in the workspaces list and resolves it here, so a run never goes to a workspace the admin did
// not mean: a name that matches nothing or several is refused with a message saying so.
import type { WorkspaceResolution } from "./run-draft";

export type WorkspaceCandidate = { id: string; name: string; owner: string };

/** What the form shows for a workspace, and what the admin may type: "owner/name". */
export const workspaceLabel = (w: Pick<WorkspaceCandidate, "owner" | "name">) => `${w.owner}/${w.name}`;

/** The text to search the workspaces list by for a typed workspace: its name (the list does not search "owner/name"). */
export function searchTermOf(typed: string): string {
  return typed.slice(typed.lastIndexOf("/") + 1);
}

/** The workspaces the search found for the typed text (null while looking), and whether it listed them all. */
export type Lookup = { candidates: readonly WorkspaceCandidate[]; complete: boolean } | null;

const same = (a: string, b: string) => a.localeCompare(b, undefined, { sensitivity: "accent" }) === 0;

/** The id of the one workspace the text names: its id, its "owner/name", or its name alone when only one has it. */
export function resolveWorkspace(typed: string, lookup: Lookup): WorkspaceResolution {
  if (!lookup) return { ok: false, problem: `Looking up “${typed}”…` };
  const { candidates, complete } = lookup;
  const byId = candidates.find((w) => w.id === typed);
  if (byId) return { ok: true, id: byId.id };
  const slash = typed.lastIndexOf("/");
  const matches =
    slash < 0
      ? candidates.filter((w) => same(w.name, typed))
      : candidates.filter((w) => same(w.name, typed.slice(slash + 1)) && same(w.owner, typed.slice(0, slash)));
  if (matches.length === 1) return { ok: true, id: matches[0].id };
  if (matches.length > 1) {
    const named = matches.slice(0, 3).map(workspaceLabel).join(", ");
    return {
      ok: false,
      problem: `“${typed}” names ${matches.length} workspaces (${named}${matches.length > 3 ? ", …" : ""}): write owner/name.`,
    };
  }
  return complete
    ? { ok: false, problem: `No workspace is named “${typed}”.` }
    : {
        ok: false,
        problem: `More workspaces match “${typed}” than were looked up: write owner/name or the workspace's id.`,
      };
}
