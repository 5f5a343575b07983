import { validate } from "@/lib/validations/validate";
import { ValidationError } from "@/lib/errors";
import { SUPPORTED_REPORT_VERSIONS } from "@/lib/report-format/constants";
import { report, type Report } from "@/lib/report-format/schema";

/** Validates a decoded report body; an unknown format version gets its own error naming the accepted ones. */
export function parseReport(value: unknown): Report {
  const version = (value as { version?: unknown } | null)?.version;
  if (typeof value === "object" && value !== null && !SUPPORTED_REPORT_VERSIONS.includes(version as number)) {
    throw new ValidationError(
      `Report format version ${JSON.stringify(version)} is not accepted; this server accepts ${SUPPORTED_REPORT_VERSIONS.join(", ")}.`,
      { accepted: SUPPORTED_REPORT_VERSIONS, received: version ?? null },
      "unsupported_version",
    );
  }
  return validate(report, value);
}
