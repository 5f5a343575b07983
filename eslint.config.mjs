import { defineConfig, globalIgnores } from "eslint/config";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";
import importX from "eslint-plugin-import-x";

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
const dbLayerMessage =
  "lib/db holds connections, schema, migrations and queries: the domain operations that call it live in lib/services, and sign-in (lib/auth) calls it too, never the other way. (It may read lib/coder/config, the configuration behind the links to Coder that rows carry, and the Coder API's types.)";

export default defineConfig([
  ...nextVitals,
  ...nextTs,
  {
    // A leading underscore marks a parameter kept for a signature (a seam not built yet).
    rules: { "@typescript-eslint/no-unused-vars": ["warn", { argsIgnorePattern: "^_" }] },
  },
  {
    // Modules that import each other, directly or round a loop, can be neither read nor loaded in layers. Type
    // imports are exempt (they vanish at compile time).
    plugins: { "import-x": importX },
    settings: { "import-x/resolver-next": [createTypeScriptImportResolver()] },
    rules: { "import-x/no-cycle": ["error", { ignoreExternal: true }] },
  },
  {
    files: ["lib/reporter/**/*.ts"],
    ignores: ["lib/reporter/**/*.test.ts"],
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
              group: ["zod", "zod/*", "@/lib/report-format/schema", "@/lib/cleanup/protocol"],
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
            // The Coder API's types name what the sync stores; its code stays out.
            { regex: "^@/lib/coder/(?!config$)", allowTypeImports: true, message: dbLayerMessage },
          ],
        },
      ],
    },
  },
  {
    // The layers point one way: services call queries, never the reverse. Tests assemble layers and may cross.
    files: ["lib/db/**/*.ts"],
    ignores: ["lib/db/**/*.test.ts"],
    rules: {
      "import-x/no-restricted-paths": [
        "error",
        {
          zones: [{ target: "./lib/db", from: ["./lib/services", "./lib/auth"], message: dbLayerMessage }],
        },
      ],
    },
  },
  {
    // Lower layers that the queries and routes call: they never call back up.
    files: ["lib/{findings,format,shaping,report-format}/**/*.ts"],
    ignores: ["**/*.test.ts"],
    rules: {
      "import-x/no-restricted-paths": [
        "error",
        {
          zones: [
            {
              target: ["./lib/findings", "./lib/format", "./lib/shaping", "./lib/report-format"],
              from: ["./lib/db", "./lib/services", "./lib/http"],
              message:
                "lib/findings, lib/format, lib/shaping and lib/report-format are called by the queries and routes, never the other way.",
            },
            {
              target: "./lib/report-format",
              from: ["./lib/catalog", "./lib/validations"],
              message:
                "lib/report-format is the lowest layer (docs/architecture.md#layering): the catalog and lib/validations import it, never the other way.",
            },
          ],
        },
      ],
    },
  },
  {
    // lib/coder is the Coder API's client (configuration, types, requests), below lib/db: the sync that stores
    // what it reads is a service (lib/services/coder-sync.ts).
    files: ["lib/coder/**/*.ts"],
    ignores: ["**/*.test.ts"],
    rules: {
      "import-x/no-restricted-paths": [
        "error",
        {
          zones: [
            {
              target: "./lib/coder",
              from: ["./lib/db", "./lib/services", "./lib/metrics", "./lib/auth"],
              message: "lib/coder is the Coder API's client, below lib/db: the sync that writes lives in lib/services.",
            },
          ],
        },
      ],
    },
  },
  {
    // The reporter runs alone inside workspaces: of the dashboard's code it bundles only the report's format and
    // the catalog (and the cleanup protocol's types, which vanish at compile time).
    files: ["lib/reporter/**/*.ts"],
    ignores: ["lib/reporter/**/*.test.ts"],
    rules: {
      "import-x/no-restricted-paths": [
        "error",
        {
          zones: [
            {
              target: "./lib/reporter",
              from: "./lib",
              except: ["./reporter", "./report-format", "./catalog", "./cleanup/protocol.ts"],
              message: reporterMessage,
            },
            {
              target: "./lib/reporter",
              from: ["./app", "./components", "./scripts", "./tests"],
              message: reporterMessage,
            },
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
  {
    // Every button is drawn by Button (components/ui/button.tsx): its variants carry the house look, and its type
    // defaults to "button", so none submits a form by accident.
    files: ["**/*.tsx"],
    ignores: ["components/ui/button.tsx"],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector: "JSXOpeningElement[name.name='button']",
          message:
            "Draw a button with Button from @/components/ui/button (variant, size, pending), not a hand-written <button>.",
        },
      ],
    },
  },
  {
    // One write shape: a change and its audit row are written by a service, in one transaction
    // (withTransaction and writeAudit in lib/services/transaction.ts). Better Auth's hooks run inside the
    // library's own flow and keep their calls; lib/db/queries/audit.ts defines the writer.
    // .ts files only: the button rule above holds no-restricted-syntax for .tsx (components and pages never
    // reach the database's audit writer).
    files: ["**/*.ts"],
    ignores: ["**/*.test.ts", "tests/**", "lib/services/**", "lib/auth/hooks.ts", "lib/db/queries/audit.ts"],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector: "ImportSpecifier[imported.name='recordAudit'], CallExpression[callee.name='recordAudit']",
          message:
            "Audit rows are written by lib/services, inside the change's transaction: withTransaction(ctx, fn) and its audit(), or writeAudit (lib/services/transaction.ts).",
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
