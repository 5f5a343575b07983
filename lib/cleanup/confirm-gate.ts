// What a destructive run asks before it is sent. A small run is confirmed with one more click on a dialog that
// states the figure and the scope; a large one (over 10 GiB or over 10 workspaces) has the admin type what
// they confirm: the figure as the dialog writes it, or, for one workspace, its name. A dry run changes nothing
// and asks nothing.
import { formatBytes } from "@/lib/format/bytes";

const GIB = 1024 ** 3;
/** Above either of these, the admin types what they confirm. */
export const TYPE_ABOVE = { bytes: 10 * GIB, workspaces: 10 } as const;

export type ConfirmGate =
  | { kind: "none" }
  | { kind: "click" }
  /** `expected`: the text to type; `what`: what it is, for the field's label. */
  | { kind: "type"; expected: string; what: "figure" | "workspace name" };

/**
 * The confirmation a run needs: none for a dry run, a click for a small one, typing for a large one.
 * `workspaceName`: the one workspace's name when the run acts on exactly one.
 */
export function confirmGate(
  run: { dryRun: boolean; bytes: number; workspaces: number },
  workspaceName?: string,
): ConfirmGate {
  if (run.dryRun) return { kind: "none" };
  if (run.bytes <= TYPE_ABOVE.bytes && run.workspaces <= TYPE_ABOVE.workspaces) return { kind: "click" };
  if (run.workspaces === 1 && workspaceName) return { kind: "type", expected: workspaceName, what: "workspace name" };
  return { kind: "type", expected: formatBytes(run.bytes), what: "figure" };
}

/** Whether what was typed is what the gate asks: spaces around and between words and letter case aside. */
export function typedMatches(gate: ConfirmGate, typed: string): boolean {
  if (gate.kind !== "type") return true;
  const norm = (s: string) => s.trim().replace(/\s+/g, " ").toLowerCase();
  return norm(typed) === norm(gate.expected);
}
