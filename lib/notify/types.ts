// What an owner is told about one workspace: decided by lib/notify/decide.ts, worded by lib/notify/render.ts,
// stored with each outbox row (lib/db/schema/notifications.ts) so a retry sends what was decided.

export const NOTICE_KINDS = ["full", "filling", "lost-at-restart"] as const;
export type NoticeKind = (typeof NOTICE_KINDS)[number];

/** The kinds an owner's one-click unsubscribe cannot turn off. */
export const ALWAYS_SENT: readonly NoticeKind[] = ["full"];

/** One of the largest things on the workspace's disk. */
export type Cause = { agent: string; path: string; bytes: number };

/** The one thing that frees the most. */
export type Action =
  | { type: "recipe"; recipeId: string; title: string; bytes: number }
  | { type: "grow-disk" }
  | { type: "persist"; paths: string[] };

export type Notice = {
  kind: NoticeKind;
  /** Identifies the state; a different key (at the same level or worse) is told again. */
  stateKey: string;
  level: number;
  workspace: { id: string; name: string; owner: string };
  /** The figure, in words ("97 % used", "full in 3 days"). */
  figure: string;
  causes: Cause[];
  action: Action;
  decidedAt: string;
};

export type NoticeChannel = "email" | "webhook";
