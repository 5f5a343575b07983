// Instructions a command executes in user space, every process it starts included (valgrind's callgrind): a
// count that other work on the machine does not move, where wall times on a shared 2-core machine moved by a
// factor of three. The kernel's work (most of du's) is not in it: compare a program with an earlier build of
// itself, not with du.

import { spawnSync } from "node:child_process";

export const VALGRIND = spawnSync("sh", ["-c", "command -v valgrind"]).status === 0;

/** Millions of instructions, or null where valgrind is missing or the command failed under it. */
export function instructions(cmd: string, args: string[], env: NodeJS.ProcessEnv = process.env): number | null {
  if (!VALGRIND) return null;
  const r = spawnSync(
    "valgrind",
    [
      "--tool=callgrind",
      "--callgrind-out-file=/dev/null",
      // V8 writes the code it runs: valgrind must see it change
      "--smc-check=all-non-file",
      "--trace-children=yes",
      cmd,
      ...args,
    ],
    { env, encoding: "utf8", stdio: ["ignore", "ignore", "pipe"], maxBuffer: 16 * 1024 * 1024 },
  );
  if (r.status !== 0) return null;
  let total = 0;
  for (const m of r.stderr.matchAll(/==\d+== Collected : (\d+)/g)) total += Number(m[1]);
  return total > 0 ? total / 1e6 : null;
}
