// A run of the reporter: configuration → run lock → scan and build the report → deliver it (and any spooled
// ones) → cleanup jobs. entry.ts calls it with the real process; the tests call it with their own.

import os from "node:os";
import { maintainTrash, runCleanupJobs, type JobContext } from "../cleanup/jobs";
import type { Env } from "../env";
import { EXIT } from "../exit-codes";
import { buildReport } from "../scan/build-report";
import { nativeScanner } from "../scan/native-scanner";
import type { ScannerChoice } from "../scan/scan-roots";
import type { InboxNotice } from "@/lib/report-format/coder-inbox";
import { coderInboxFrom, deliverToInbox, describeCoderInbox, tellOutcomes } from "../send/coder-inbox";
import { deliverAll } from "../send/delivery";
import { DEFAULT_RETRY, gzip, type RetryPolicy } from "../send/http";
import { acquireLock, readToken, releaseLock, startRun, writesFailedNoSpace } from "../state";
import { REPORTER_VERSION } from "../version";
import { HELP, UsageError, parseArgs, type Options } from "./command-line";
import { configure, type Configuration } from "./configuration";

export type Io = {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
};

export type MainDeps = {
  env: Env;
  io: Io;
  retry?: RetryPolicy;
  now?: () => Date;
  /** Test seam: runs in each cleanup job between planning and acting. */
  afterPlan?: JobContext["afterPlan"];
};

export async function main(argv: string[], deps: MainDeps): Promise<number> {
  const { env, io } = deps;
  const log = (s: string) => io.stderr(`storage-reporter: ${s}\n`);
  let opts: Options;
  try {
    opts = parseArgs(argv);
  } catch (err) {
    log((err as Error).message);
    return EXIT.USAGE;
  }
  if (opts.help) {
    io.stdout(HELP);
    return EXIT.OK;
  }
  if (opts.version) {
    io.stdout(REPORTER_VERSION + "\n");
    return EXIT.OK;
  }
  const verbose = (s: string) => opts.verbose && log(s);

  // Be a quiet neighbour: lowest CPU priority (and with it, the lowest best-effort I/O priority) for us and
  // the find processes we start.
  try {
    os.setPriority(19);
  } catch {
    /* not allowed: carry on */
  }

  let cfg: Configuration;
  try {
    cfg = configure(opts, env);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    log(err.message);
    return EXIT.USAGE;
  }
  const dry = opts.dryRun;
  if (!dry) {
    startRun();
    if (!acquireLock(cfg.state)) {
      log("another run is in progress: nothing to do");
      return EXIT.OK;
    }
  }
  const now = deps.now ?? (() => new Date());
  const retry = deps.retry ?? DEFAULT_RETRY;
  const useNative = opts.scanner === "auto" || opts.scanner === "native";
  const scanner: ScannerChoice = {
    mode: opts.scanner,
    native: useNative ? nativeScanner(cfg.state, { dryRun: dry }) : null,
  };
  const coderInbox = coderInboxFrom(env);
  if (coderInbox) verbose(`delivering the owner's notices to the ${describeCoderInbox(coderInbox)}`);
  // Build a report and deliver it with whatever waits in the spool; then the owner's Coder Inbox notices its
  // answer carried.
  const reportAndSend = async (splayMs: number) => {
    const built = await buildReport(cfg, env, scanner, now(), verbose);
    // The run's own writes so far (its folder, lock, scanner, token) failed for lack of space: the home is full.
    const report = writesFailedNoSpace() ? { ...built, writesFailedNoSpace: true as const } : built;
    const token = readToken(cfg.state) ?? cfg.token;
    const notices = new Map<string, InboxNotice>();
    const code = await deliverAll({
      ...cfg,
      token,
      report,
      body: gzip(JSON.stringify(report)),
      log,
      verbose,
      retry,
      splayMs,
      coderInboxReady: coderInbox !== null,
      inbox: (list) => list.forEach((n) => notices.set(n.id, n)),
    });
    const inboxRun = { server: cfg.server, token: readToken(cfg.state) ?? "", state: cfg.state, log, verbose };
    if (coderInbox && notices.size) await deliverToInbox(inboxRun, coderInbox, [...notices.values()]);
    else if (code === EXIT.OK) await tellOutcomes(inboxRun, []);
    return code;
  };
  try {
    if (dry) {
      const report = await buildReport(cfg, env, scanner, now(), verbose);
      io.stdout(JSON.stringify(report, null, 2) + "\n");
      return EXIT.OK;
    }
    try {
      maintainTrash(cfg.home, now()); // expired trash goes before the scan, so the report shows it gone
    } catch (err) {
      log(`emptying the expired trash failed: ${(err as Error).message}`);
    }
    const code = await reportAndSend(opts.splay * 1000);
    if (code !== EXIT.OK) return code;
    return await runCleanupJobs({
      server: cfg.server,
      token: readToken(cfg.state) ?? "",
      home: cfg.home,
      state: cfg.state,
      env,
      config: cfg.config,
      log,
      retry,
      now,
      scanner,
      sendFreshReport: () => reportAndSend(0),
      afterPlan: deps.afterPlan,
    });
  } finally {
    if (!dry) releaseLock(cfg.state);
  }
}
