// One run's delivery as every step of it sees it (enrollment, sending, the spool): a leaf module, so that the
// steps and deliverAll import it and not each other.

import type { InboxNotice } from "@/lib/report-format/coder-inbox";
import type { Report } from "@/lib/report-format/schema";
import type { Configuration } from "../cli/configuration";
import type { RetryPolicy } from "./http";

/** One run's delivery: the new report (and its gzipped body) and how to reach the dashboard. */
export type Delivery = Pick<Configuration, "server" | "state" | "token" | "identity" | "enrollmentKey"> & {
  report: Report;
  body: Buffer;
  log: (s: string) => void;
  verbose: (s: string) => void;
  retry: RetryPolicy;
  splayMs: number;
  /** Told of each report the dashboard acknowledged (stored now or before), e.g. by a load test. */
  acknowledged?: (id: string) => void;
  /** This run can deliver to the owner's Coder Inbox: the dashboard is told so with each report. */
  coderInboxReady?: boolean;
  /** Given the notices an answer carries for the owner's Coder Inbox. */
  inbox?: (notices: InboxNotice[]) => void;
};
