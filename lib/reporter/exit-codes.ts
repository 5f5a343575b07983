// The reporter's exit codes: what the template's script (75 counts as success there) and an operator read from
// a run. HELP and docs/reporter.md list them too.

export const EXIT = {
  OK: 0,
  INTERNAL: 1,
  USAGE: 2,
  AUTH: 3,
  REJECTED: 4,
  SPOOLED: 75,
} as const;
