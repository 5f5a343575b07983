import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // PGlite ships WebAssembly and data files that must be loaded from node_modules, not bundled.
  serverExternalPackages: ["@electric-sql/pglite", "pg", "pg-copy-streams", "proper-lockfile"],
  poweredByHeader: false,
  // forbidden(): a viewer on an admin page gets a 403 and app/forbidden.tsx, not a "not found".
  experimental: { authInterrupts: true },
  // The build checks the app's own code; tests and scripts are checked by `npm run typecheck`.
  typescript: { tsconfigPath: "tsconfig.build.json" },
};

export default nextConfig;
