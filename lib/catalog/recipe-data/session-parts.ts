// Units spread over several folders: a session file and what the agent keeps elsewhere under the session's
// id, which the agent's own cleanup removes with it. Plain data (see recipes.ts).

/**
 * One part of a "file+parts" unit besides its file: an entry of `folder` (relative to the project folder; ""
 * is the project folder itself) named `prefix` + a session id + `suffix`.
 */
export type SessionPart = {
  folder: string;
  prefix: string;
  suffix: string;
  kind: "file" | "dir";
  /** A folder holding the session's subagent chats, `<subagent id>.json` or `.jsonl`. */
  holdsSubagents?: boolean;
  /** Named by a subagent's id too: it then goes with the subagent's parent session. */
  ofSubagents?: boolean;
};

export type SessionParts = {
  /** Segments of the project folder in the unit's glob: every part of a unit sits in its file's project folder. */
  projectDepth: number;
  /** The file's name ends with "-", the first `idChars` characters of the session's id, then ".json" or ".jsonl". */
  idChars: number;
  parts: SessionPart[];
};

/**
 * Gemini CLI keeps, per project folder tmp/<project hash>/: the chat chats/session-<YYYY-MM-DDTHH-MM>-<first 8
 * characters of the session id>.jsonl (.json in older releases; resuming one writes the .jsonl beside it under
 * the same name, and both are the one session), the activity log logs/session-<id>.jsonl, the tool outputs
 * tool-outputs/session-<id>/, the session's own temporary folder <id>/, and chats/<id>/ with its subagents'
 * chats (<subagent id>.jsonl), whose log, tool outputs and temporary folder are named by the subagent's id.
 * Its own cleanup (general.sessionRetention, and deleting a session from /resume) removes a session with all
 * of these. Gemini CLI reads the full id from the chat's first line; the walk reads no content, so a part goes
 * with the session whose file name ends with its id's first 8 characters. Two sessions of one project whose
 * ids share those are one unit, as Gemini CLI's own delete by that short id takes both.
 */
export const GEMINI_SESSION_PARTS: SessionParts = {
  projectDepth: 2,
  idChars: 8,
  parts: [
    { folder: "logs", prefix: "session-", suffix: ".jsonl", kind: "file", ofSubagents: true },
    { folder: "tool-outputs", prefix: "session-", suffix: "", kind: "dir", ofSubagents: true },
    { folder: "", prefix: "", suffix: "", kind: "dir", ofSubagents: true },
    { folder: "chats", prefix: "", suffix: "", kind: "dir", holdsSubagents: true },
  ],
};
