import { z } from "zod";
import { LIMITS } from "./constants";

// What survives a restart: the mount that holds the home and each root (after symbolic links are resolved, as
// /proc/self/mountinfo names it), a verdict on it, and the AgentAPI state files the modules keep. Facts only:
// the dashboard words the findings.

/** "unknown" is what the rules cannot tell; it is never a guess either way. */
export const PERSISTENCE_VERDICTS = ["persistent", "not-persistent", "unknown"] as const;
export type PersistenceVerdict = (typeof PERSISTENCE_VERDICTS)[number];

const text = z.string().min(1).max(LIMITS.pathLength);

/** One line of mountinfo, the fields that decide a verdict. */
export const mountFacts = z
  .object({
    mountPoint: text,
    fsType: z.string().min(1).max(100),
    source: z.string().max(LIMITS.pathLength),
    /** The folder of the source file system that is mounted here (a bind mount's or a volume's own folder). */
    root: text,
    /** Whether this is the mount that holds the home folder. */
    homeVolume: z.boolean(),
  })
  .strict();

export const placement = z
  .object({
    /** Null where the mount could not be found (mountinfo unreadable). */
    mount: mountFacts.nullable(),
    verdict: z.enum(PERSISTENCE_VERDICTS),
    /** Why, in a few words ("tmpfs is lost at every stop"). */
    reason: z.string().min(1).max(300),
    /** The symbolic link that leads this root off the home's volume: its path (relative to home) and where it leads. */
    link: z.object({ path: text, target: text }).strict().optional(),
  })
  .strict();

/** A module folder AgentAPI runs from (agentapi.pid there), and its state file. */
export const agentapiState = z
  .object({
    /** The root key of the module folder (`coder/claude-code`, `legacy:claude-module`). */
    root: z.string().min(1).max(200),
    /**
     * "on": the running AgentAPI's environment sets AGENTAPI_SAVE_STATE=true; "off": it runs without it;
     * "unknown": not running or its environment cannot be read.
     */
    persistence: z.enum(["on", "off", "unknown"]),
    /** The state file (AGENTAPI_STATE_FILE, else agentapi-state.json in the folder): relative to home, or absolute. */
    stateFile: text,
    /** Its modification time; null when it does not exist. */
    stateMtime: z.iso.datetime({ offset: true }).nullable(),
  })
  .strict();

export const persistence = z
  .object({
    home: placement,
    /** By root key, for the roots of the report. */
    roots: z.record(z.string().min(1).max(200), placement),
    agentapi: z.array(agentapiState).max(LIMITS.roots).optional(),
  })
  .strict()
  .refine((p) => Object.keys(p.roots).length <= LIMITS.roots, "too many roots");

export type MountFacts = z.infer<typeof mountFacts>;
export type Placement = z.infer<typeof placement>;
export type AgentapiState = z.infer<typeof agentapiState>;
export type Persistence = z.infer<typeof persistence>;
