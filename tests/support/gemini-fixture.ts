// A Gemini CLI data folder shaped like the real one (lib/catalog/recipe-data/session-parts.ts), for the cleanup
// tests (not bundled): sessions whose chat, log, tool outputs, temporary folder and subagents sit in five
// folders of their project folder, at known ages, beside parts no session owns.

export const GEMINI_PROJECT = ".gemini/tmp/7f3e9a0c4b1d2e5f60718293a4b5c6d7e8f90123456789abcdef0123456789ab";
const OTHER_PROJECT = ".gemini/tmp/0c1d2e3f405162738495a6b7c8d9eaf0b1c2d3e4f5061728394a5b6c7d8e9f0a";
const id = (short: string, n: number) => `${short}-0000-4000-8000-${String(n).padStart(12, "0")}`;
/** 40 days old, with every part and a subagent that has parts of its own. */
export const OLD = id("a1b2c3d4", 1);
const SUBAGENT = id("5ab0a9e1", 2);
/** 2 days old. */
const YOUNG = id("b2c3d4e5", 3);
/** Its chat is 40 days old, but its log was written yesterday: the session is a day old. */
const STILL_LOGGING = id("d4e5f6a7", 4);
/** A log whose chat is gone: no session's. */
const ORPHAN = id("e5f6a7b8", 5);
/** In another project folder, 60 days old: a chat from an older release (.json) and its log. */
const OTHER = id("c3d4e5f6", 6);
/** Two sessions whose ids share their first 8 characters, 40 and 2 days old: one unit, 2 days old. */
const TWINS = [id("f0f0f0f0", 7), id("f0f0f0f0", 8)];

const chat = (project: string, sid: string, ext: string, time = "2026-09-01T10-00") =>
  `${project}/chats/session-${time}-${sid.slice(0, 8)}.${ext}`;

/** Every entry (relative to home) of the old session's unit, folders and files. */
export const OLD_SESSION_ENTRIES = [
  chat(GEMINI_PROJECT, OLD, "json"),
  chat(GEMINI_PROJECT, OLD, "jsonl"),
  `${GEMINI_PROJECT}/logs/session-${OLD}.jsonl`,
  `${GEMINI_PROJECT}/tool-outputs/session-${OLD}`,
  `${GEMINI_PROJECT}/tool-outputs/session-${OLD}/shell_1.txt`,
  `${GEMINI_PROJECT}/tool-outputs/session-${OLD}/nested`,
  `${GEMINI_PROJECT}/tool-outputs/session-${OLD}/nested/read_file_2.txt`,
  `${GEMINI_PROJECT}/${OLD}`,
  `${GEMINI_PROJECT}/${OLD}/plan.md`,
  `${GEMINI_PROJECT}/chats/${OLD}`,
  `${GEMINI_PROJECT}/chats/${OLD}/${SUBAGENT}.jsonl`,
  `${GEMINI_PROJECT}/logs/session-${SUBAGENT}.jsonl`,
  `${GEMINI_PROJECT}/tool-outputs/session-${SUBAGENT}`,
  `${GEMINI_PROJECT}/tool-outputs/session-${SUBAGENT}/grep_3.txt`,
  `${GEMINI_PROJECT}/${SUBAGENT}`,
  `${GEMINI_PROJECT}/${SUBAGENT}/notes.txt`,
];
/** The old session's tops, as a job lists them (relative to home): its files first, then its parts. */
export const OLD_SESSION_TOPS = [
  chat(GEMINI_PROJECT, OLD, "json"),
  chat(GEMINI_PROJECT, OLD, "jsonl"),
  ...[
    `${GEMINI_PROJECT}/${OLD}`,
    `${GEMINI_PROJECT}/${SUBAGENT}`,
    `${GEMINI_PROJECT}/chats/${OLD}`,
    `${GEMINI_PROJECT}/logs/session-${OLD}.jsonl`,
    `${GEMINI_PROJECT}/logs/session-${SUBAGENT}.jsonl`,
    `${GEMINI_PROJECT}/tool-outputs/session-${OLD}`,
    `${GEMINI_PROJECT}/tool-outputs/session-${SUBAGENT}`,
  ].sort(),
];
/** What a job on sessions older than 7 days removes in the other project. */
export const OTHER_SESSION_ENTRIES = [
  chat(OTHER_PROJECT, OTHER, "json"),
  `${OTHER_PROJECT}/logs/session-${OTHER}.jsonl`,
];

/**
 * Writes the data with `p` (a file of bytes, its age in days) and gives the folders of parts their age with
 * `folder` (writing into a folder makes it new).
 */
export function buildGeminiData(
  p: (rel: string, bytes: number, ageDays: number) => void,
  folder: (rel: string, ageDays: number) => void,
) {
  const P = GEMINI_PROJECT;
  p(chat(P, OLD, "json"), 12_000, 41);
  p(chat(P, OLD, "jsonl"), 15_000, 40);
  p(`${P}/logs/session-${OLD}.jsonl`, 7000, 40);
  p(`${P}/tool-outputs/session-${OLD}/shell_1.txt`, 30_000, 40);
  p(`${P}/tool-outputs/session-${OLD}/nested/read_file_2.txt`, 9000, 40);
  p(`${P}/${OLD}/plan.md`, 1500, 40);
  p(`${P}/chats/${OLD}/${SUBAGENT}.jsonl`, 5000, 40);
  p(`${P}/logs/session-${SUBAGENT}.jsonl`, 2500, 40);
  p(`${P}/tool-outputs/session-${SUBAGENT}/grep_3.txt`, 4000, 40);
  p(`${P}/${SUBAGENT}/notes.txt`, 800, 40);
  for (const f of [`tool-outputs/session-${OLD}`, OLD, `chats/${OLD}`, `tool-outputs/session-${SUBAGENT}`, SUBAGENT])
    folder(`${P}/${f}`, 40);

  p(chat(P, YOUNG, "jsonl"), 8000, 2);
  p(`${P}/logs/session-${YOUNG}.jsonl`, 3000, 2);
  p(`${P}/tool-outputs/session-${YOUNG}/shell_1.txt`, 6000, 2);
  folder(`${P}/tool-outputs/session-${YOUNG}`, 2);
  p(chat(P, STILL_LOGGING, "jsonl"), 8000, 40);
  p(`${P}/logs/session-${STILL_LOGGING}.jsonl`, 3000, 1);
  p(`${P}/logs/session-${ORPHAN}.jsonl`, 2000, 90);
  p(chat(P, TWINS[0], "jsonl", "2026-09-02T10-00"), 4000, 40);
  p(`${P}/logs/session-${TWINS[0]}.jsonl`, 1000, 40);
  p(chat(P, TWINS[1], "jsonl", "2026-11-25T10-00"), 4000, 2);
  p(`${P}/tool-outputs/loose-output.txt`, 1000, 90); // from releases that kept no folder per session
  p(`${P}/logs.json`, 600, 90);
  p(`${P}/shell_history`, 300, 90);

  p(chat(OTHER_PROJECT, OTHER, "json"), 9000, 60);
  p(`${OTHER_PROJECT}/logs/session-${OTHER}.jsonl`, 1200, 60);
}
