import { sql } from "drizzle-orm";
import { z } from "zod";
import { AGENTS, agentDisplayName } from "@/lib/catalog/agents";
import { formatBytes } from "@/lib/format/bytes";
import type { MeasuredFinding } from "../finding";
import { defineRule } from "../rule";
import { where } from "../wording";

// An agent's root on storage lost at every stop while the home itself persists (a lost home is its own finding):
// a tmpfs mounted over the folder, or a symbolic link from the home into /tmp or another RAM disk. `path` says
// where it lives: the link and its target, or the mount.

const placement = sql`(w.persistence -> 'roots' -> r.root_key)`;
const lives = sql`coalesce(${placement} -> 'link' ->> 'path' || ' → ' || (${placement} -> 'link' ->> 'target'),
  (${placement} -> 'mount' ->> 'fsType') || ' at ' || (${placement} -> 'mount' ->> 'mountPoint'))`;
const sessionBytes = sql`coalesce((r.categories -> 'sessions' ->> 'bytes')::float8, 0)`;
/** Each agent's own folder that keeps its sessions (the first of its data paths, where its session rules apply). */
const SESSION_ROOTS = AGENTS.filter((a) => a.categories.some((c) => c.category === "sessions")).map(
  (a) => a.dataPaths[0].key,
);

/**
 * Whether root `r` of workspace `w` holds sessions: measured in it, or it is an agent's session folder linked
 * elsewhere (the reporter never follows a link, so what is behind it is not measured).
 */
export const holdsSessions = sql`(${sessionBytes} > 0 or (${placement} ? 'link' and r.root_key in (${sql.join(
  SESSION_ROOTS.map((k) => sql`${k}`),
  sql`, `,
)})))`;

const lostRule = <K extends "agent-sessions-lost" | "agent-data-lost">(id: K, sessions: boolean) =>
  defineRule({
    id,
    title: sessions ? "Agent sessions lost at restart" : "Agent data lost at restart",
    description: sessions
      ? "An agent's folder that holds sessions is on storage lost at every stop (tmpfs, overlay, or linked there), while the home persists: the agent cannot resume."
      : "An agent's folder without sessions (settings, logs, caches) is on storage lost at every stop, while the home persists.",
    enabled: true,
    severity: sessions ? "critical" : "warning",
    params: z.object({}).strict(),
    defaults: {},
    unit: "bytes",
    scope: "root",
    urgency: sql`value`,
    rows: (_p, { ws }) => sql`select r.workspace_id, r.root_key, r.agent, ${lives} as path,
        r.bytes::float8 as value, 0::float8 as threshold
      from root_latest r join workspaces w on w.id = r.workspace_id
      where ${placement} ->> 'verdict' = 'not-persistent'
        and w.persistence -> 'home' ->> 'verdict' <> 'not-persistent'
        and r.kind in ('tool', 'module', 'legacy', 'custom')
        and ${sessions ? holdsSessions : sql`not ${holdsSessions}`} ${ws}`,
    fields: {},
    items: () => (sessions ? "agent folders with sessions lost at restart" : "agent folders lost at restart"),
    describe: (f: MeasuredFinding) => ({
      message: `${agentDisplayName(f.agent ?? "")}'s ${f.rootKey ?? "folder"} lives on ${f.path ?? "storage"}, lost at every stop (${
        f.path?.includes(" → ") ? "behind a link, not measured" : formatBytes(f.value)
      }${sessions ? ", sessions included" : ""}).`,
      action: `Keep ${where({ ...f, path: null })} on the home's volume: remove the link or the mount over it (a tmpfs, a folder in /tmp) in the template or the start script.`,
    }),
  });

export const agentSessionsLost = lostRule("agent-sessions-lost", true);
export const agentDataLost = lostRule("agent-data-lost", false);
