// What an owner is told about one workspace: decided by lib/notify/decide.ts, worded by lib/notify/render.ts,
// stored with each outbox row (lib/db/schema/notifications.ts) so a retry sends what was decided.

export const NOTICE_KINDS = ["full", "filling", "growing-file", "lost-at-restart", "cleanup-ahead"] as const;
export type NoticeKind = (typeof NOTICE_KINDS)[number];

/** The kinds an owner's one-click unsubscribe cannot turn off: they say data is about to be lost. */
export const ALWAYS_SENT = ["full", "cleanup-ahead"] as const satisfies readonly NoticeKind[];
/** The kinds an owner may turn off, per channel (docs/notifications.md). */
export const OPTIONAL_KINDS = ["filling", "growing-file", "lost-at-restart"] as const satisfies readonly NoticeKind[];
export type OptionalKind = (typeof OPTIONAL_KINDS)[number];

export const isOptionalKind = (k: string): k is OptionalKind => (OPTIONAL_KINDS as readonly string[]).includes(k);

/** The kinds an email sends at once, on their own, rather than in the next daily digest: they cannot wait. */
export const SENT_AT_ONCE: readonly NoticeKind[] = ALWAYS_SENT;

/** One of the largest things on the workspace's disk. */
export type Cause = { agent: string; path: string; bytes: number };

/** The one thing that frees the most, or keeps what a cleanup would take. */
export type Action =
  | { type: "recipe"; recipeId: string; title: string; bytes: number }
  | { type: "grow-disk" }
  | { type: "persist"; paths: string[] }
  | { type: "protect"; policy: string; at: string; paths: string[] };

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

/**
 * "coder-inbox": the owner's Coder Inbox, delivered by the workspace's own reporter with the owner's session token
 * (lib/services/coder-inbox.ts); the dashboard's sender sends the others.
 */
export const NOTICE_CHANNELS = ["email", "webhook", "coder-inbox"] as const;
export type NoticeChannel = (typeof NOTICE_CHANNELS)[number];
/** The channels the dashboard sends itself. */
export const SENDER_CHANNELS = ["email", "webhook"] as const satisfies readonly NoticeChannel[];
export type SenderChannel = (typeof SENDER_CHANNELS)[number];
