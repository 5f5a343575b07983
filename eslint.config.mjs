import { defineConfig, globalIgnores } from "eslint/config";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

// The layering, enforced: each folder below may not import what would break it. Type-only imports are allowed
// where noted (they vanish at compile time, so they carry no code across the line).
const RULE = "@typescript-eslint/no-restricted-imports";

const reporterMessage =
  "lib/reporter is bundled into one dependency-free file that runs inside workspaces on plain Node: it may import only node: built-ins, lib/report-format/constants, lib/report-format/volume, lib/catalog, its own files and the settings parsers bundled with it (smol-toml, jsonc-parser).";
const dbValueMessage =
  "components run in the browser: they may import database types (import type) but no database code; data comes through lib/query and the JSON API.";
const appMessage =
  "app/ holds routes only; shared code lives in lib/ (URL and API parameters in lib/validations) so that nothing depends on a route file.";
const uiMessage = "lib/db is the database layer: it knows nothing of routes or components.";

export default defineConfig([
  ...nextVitals,
  ...nextTs,
  {
    // A leading underscore marks a parameter kept for a signature (a seam not built yet).
    rules: { "@typescript-eslint/no-unused-vars": ["warn", { argsIgnorePattern: "^_" }] },
  },
  {
    files: ["lib/reporter/**/*.ts"],
    ignores: ["lib/reporter/**/*.test.ts", "lib/reporter/testing.ts"],
    rules: {
      [RULE]: [
        "error",
        {
          patterns: [
            {
              group: ["next", "next/*", "react", "react/*", "react-dom", "react-dom/*", "@tanstack/*"],
              message: reporterMessage,
            },
            { group: ["drizzle-orm", "drizzle-orm/*", "pg", "pg/*", "@electric-sql/*"], message: reporterMessage },
            {
              group: ["@/lib/db", "@/lib/db/**", "@/components", "@/components/**", "@/app", "@/app/**"],
              message: reporterMessage,
            },
            // The report schema is zod: its types are free, its values would bundle zod.
            {
              group: [
                "zod",
                "zod/*",
                "@/lib/report-format/schema",
                "@/lib/report-format/parse",
                "@/lib/cleanup/protocol",
              ],
              allowTypeImports: true,
              message: reporterMessage,
            },
          ],
        },
      ],
    },
  },
  {
    files: ["components/**/*.{ts,tsx}"],
    rules: {
      [RULE]: [
        "error",
        {
          patterns: [
            {
              group: ["@/lib/db", "@/lib/db/**", "drizzle-orm", "drizzle-orm/*", "pg", "@electric-sql/*"],
              allowTypeImports: true,
              message: dbValueMessage,
            },
            { regex: "^(\\.\\./)+lib/db(/|$)", allowTypeImports: true, message: dbValueMessage },
            { group: ["@/app", "@/app/**"], message: appMessage },
            { regex: "^(\\.\\./)+app(/|$)", message: appMessage },
          ],
        },
      ],
    },
  },
  {
    files: ["lib/db/**/*.ts"],
    rules: {
      [RULE]: [
        "error",
        {
          patterns: [
            { group: ["@/app", "@/app/**", "@/components", "@/components/**"], message: uiMessage },
            { regex: "^(\\.\\./)+(app|components)(/|$)", message: uiMessage },
          ],
        },
      ],
    },
  },
  {
    files: ["lib/validations/**/*.ts"],
    rules: {
      [RULE]: [
        "error",
        {
          patterns: [
            {
              group: [
                "@/lib/db",
                "@/lib/db/**",
                "drizzle-orm",
                "drizzle-orm/*",
                "pg",
                "@electric-sql/*",
                "server-only",
              ],
              allowTypeImports: true,
              message:
                "lib/validations holds the parameter schemas that the route, the page and the browser all import: it may import database types but no database code.",
            },
            { group: ["@/app", "@/app/**", "@/components", "@/components/**"], message: appMessage },
          ],
        },
      ],
    },
  },
  globalIgnores([
    ".next/**",
    "out/**",
    "build/**",
    "dist/**",
    "public/**",
    "next-env.d.ts",
    "screenshots/**",
    "bench-results/**",
  ]),
  {
    // Configuration comes from lib/config, which checks every variable once; elsewhere an unchecked read of the
    // environment would slip past it. Programs of their own (the reporter, the scripts), Next's entry files and
    // the tests read it themselves.
    files: ["**/*.{ts,tsx,js,mjs,cjs}"],
    ignores: [
      "lib/config/**",
      "lib/reporter/**",
      "instrumentation.ts",
      "proxy.ts",
      "next.config.ts",
      "scripts/**",
      "tests/**",
      "**/*.test.{ts,tsx}",
      "**/testing.ts",
    ],
    rules: {
      "no-restricted-properties": [
        "error",
        {
          object: "process",
          property: "env",
          message:
            "Read configuration with config() from @/lib/config: it validates every variable (lib/config/variables.ts).",
        },
      ],
    },
  },
]);
