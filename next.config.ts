import type { NextConfig } from "next";
import { PHASE_PRODUCTION_BUILD } from "next/constants";

// CI and the demo build a checkout once, from sources whose types `npm run typecheck` checks over the whole tree
// (CI, just before the build): STORAGE_BUILD_ONE_OFF=1 spares next build its own check of the app's part (25 s of
// a quiet 2-core machine's build) and the writing of its incremental cache (12 s), which no later build of that
// checkout reads. Elsewhere (the image, `npm run build` by hand) the build checks and caches as usual.
const oneOff = process.env.STORAGE_BUILD_ONE_OFF === "1";

const nextConfig: NextConfig = {
  // PGlite ships WebAssembly and data files that must be loaded from node_modules, not bundled.
  serverExternalPackages: ["@electric-sql/pglite", "pg", "pg-copy-streams", "proper-lockfile"],
  poweredByHeader: false,
  // forbidden(): a viewer on an admin page gets a 403 and app/forbidden.tsx, not a "not found".
  experimental: { authInterrupts: true, turbopackFileSystemCacheForBuild: !oneOff },
  // The build checks the app's own code; tests and scripts are checked by `npm run typecheck`.
  typescript: { tsconfigPath: "tsconfig.build.json", ignoreBuildErrors: oneOff },
};

// The build also writes .next/standalone (server.js with only the traced node_modules), which the container
// image runs. Only the build sees it: `next start` reads this file again and would warn that it "does not work"
// with a standalone output, although it serves the same build.
export default function config(phase: string): NextConfig {
  return phase === PHASE_PRODUCTION_BUILD ? { ...nextConfig, output: "standalone" } : nextConfig;
}
