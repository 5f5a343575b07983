// Entry point of the bundled reporter (public/reporter.mjs).
import { EXIT } from "../exit-codes";
import { main } from "./main";

main(process.argv.slice(2), {
  env: process.env,
  io: { stdout: (s) => process.stdout.write(s), stderr: (s) => process.stderr.write(s) },
}).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`storage-reporter: unexpected error: ${(err as Error)?.stack ?? String(err)}\n`);
    process.exitCode = EXIT.INTERNAL;
  },
);
