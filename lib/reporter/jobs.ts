// Seam for cleanup jobs: after a report is delivered, the reporter will ask the dashboard for claimed cleanup
// jobs of its workspace, run them under the safety rules of DESIGN.md §5 and post the outcome. Not built yet.

export type JobContext = {
  server: string;
  token: string;
  home: string;
  log: (line: string) => void;
};

/** Runs pending cleanup jobs. Today: nothing to do. Returns an exit code contribution (0 = fine). */
export async function runCleanupJobs(_ctx: JobContext): Promise<number> {
  return 0;
}
