// Workspaces known here that Coder neither lists nor shows by id, and why: the sync keeps them as they were and
// names them beside its coverage figures. Plain data: the sync, the database's row type and the pages import it.

export const UNVERIFIED_REASONS = {
  not_readable:
    "Coder answers 403: the sync's token can read this workspace but not its template (give its role template read)",
  not_coder_id: "Coder answers 400: its id is not a Coder workspace id (a reporter with a hand-set CODER_WORKSPACE_ID)",
} as const;
export type UnverifiedReason = keyof typeof UNVERIFIED_REASONS;

export type UnverifiedWorkspace = { id: string; name: string; owner: string; reason: UnverifiedReason };
