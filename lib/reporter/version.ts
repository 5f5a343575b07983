/** The reporter's version, sent in every report (reporter.version). */
export const REPORTER_VERSION = "0.6.0";
