// What `npm run setup` found, for `npm test`: the PostgreSQL server the database tests use, and, when it is the
// embedded one, its binaries (the fault tests start a private cluster with them).
import fs from "node:fs";
import path from "node:path";

export const TEST_SETUP_FILE = path.join(process.cwd(), ".data", "test-setup.json");

export type TestSetup = { url: string; binDir?: string };

/** The environment `npm test` gives its suites: TEST_DATABASE_URL and TEST_POSTGRES_BIN unless set already. */
export function testEnvironment(env: NodeJS.ProcessEnv): Record<string, string> {
  if (!fs.existsSync(TEST_SETUP_FILE)) return {};
  const setup = JSON.parse(fs.readFileSync(TEST_SETUP_FILE, "utf8")) as TestSetup;
  return {
    ...(env.TEST_DATABASE_URL ? {} : { TEST_DATABASE_URL: setup.url }),
    ...(env.TEST_POSTGRES_BIN || !setup.binDir ? {} : { TEST_POSTGRES_BIN: setup.binDir }),
  };
}
