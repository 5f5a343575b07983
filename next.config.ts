import type { NextConfig } from "next";
import { PHASE_PRODUCTION_BUILD } from "next/constants";

const nextConfig: NextConfig = {
  // PGlite ships WebAssembly and data files that must be loaded from node_modules, not bundled.
  serverExternalPackages: ["@electric-sql/pglite", "pg", "pg-copy-streams", "proper-lockfile"],
  poweredByHeader: false,
  // forbidden(): a viewer on an admin page gets a 403 and app/forbidden.tsx, not a "not found".
  experimental: { authInterrupts: true },
  // The build checks the app's own code; tests and scripts are checked by `npm run typecheck`. Where that whole
  // check runs anyway (CI, just before the build) or nobody changed the code (the demo), STORAGE_BUILD_TYPECHECK=off
  // spares the build its own: about 25 s of a quiet 2-core machine's 2-minute build, the same output.
  typescript: {
    tsconfigPath: "tsconfig.build.json",
    ignoreBuildErrors: process.env.STORAGE_BUILD_TYPECHECK === "off",
  },
};

// The build also writes .next/standalone (server.js with only the traced node_modules), which the container
// image runs. Only the build sees it: `next start` reads this file again and would warn that it "does not work"
// with a standalone output, although it serves the same build.
export default function config(phase: string): NextConfig {
  return phase === PHASE_PRODUCTION_BUILD ? { ...nextConfig, output: "standalone" } : nextConfig;
}
