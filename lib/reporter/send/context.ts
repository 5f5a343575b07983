// One run's delivery as every step of it sees it (enrollment, sending, the spool): a leaf module, so that the
// steps and deliverAll import it and not each other.

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
};
