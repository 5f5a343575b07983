import { fileURLToPath } from "node:url";
import { configDefaults, defineConfig } from "vitest/config";

const SCHEDULER_FILES = ["tests/browser/cleanup-e2e.test.ts"];
const BROWSER = {
  globalSetup: ["tests/browser/global-setup.ts"],
  environment: "node",
  testTimeout: 120_000,
  hookTimeout: 600_000,
  fileParallelism: false,
  // Tests a file marks concurrent (the pages walk): three pages at once.
  maxConcurrency: 3,
};

export default defineConfig({
  resolve: {
    alias: {
      "@": fileURLToPath(new URL(".", import.meta.url)),
      // Database modules are marked server-only (the build fails if a client component imports them); tests
      // run them on the server side, as the package's react-server export does.
      "server-only": fileURLToPath(new URL("node_modules/server-only/empty.js", import.meta.url)),
    },
  },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: [
            "lib/**/*.test.ts",
            "components/**/*.test.ts",
            "app/**/*.test.ts",
            "tests/integration/**/*.test.ts",
            "scripts/**/*.test.ts",
          ],
          environment: "node",
          setupFiles: ["tests/support/fresh-config.ts"],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        extends: true,
        test: {
          name: "browser",
          include: ["tests/browser/**/*.test.ts"],
          exclude: [...SCHEDULER_FILES, ...configDefaults.exclude],
          ...BROWSER,
        },
      },
      {
        extends: true,
        test: {
          // Files that mostly wait for the cleanup scheduler's real minutes, on a dashboard of their own: npm test
          // runs them beside the other browser files (scripts/test.ts), not after them.
          name: "browser-scheduler",
          include: SCHEDULER_FILES,
          environment: "node",
          testTimeout: 120_000,
          hookTimeout: 600_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
