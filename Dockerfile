# The dashboard as a container image, on Next.js's standalone output (server.js and only the node_modules it
# traced). Build: docker build -t coder-storage-dashboard .   Run: docs/operating.md, "Container image".

FROM node:20-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund

FROM node:20-bookworm-slim AS build
# musl's C compiler builds the reporter's native scanner (a 30 KB static executable carried inside reporter.mjs);
# STORAGE_REPORTER_NATIVE=required fails the build rather than ship a reporter without it. binutils strips the
# Node.js runtimes served to workspaces without Node.js (107 MB instead of 125 MB each).
RUN apt-get update && apt-get install -y --no-install-recommends musl-tools binutils && rm -rf /var/lib/apt/lists/*
ENV STORAGE_REPORTER_NATIVE=required
WORKDIR /app
ENV NEXT_TELEMETRY_DISABLED=1
COPY --from=deps /app/node_modules ./node_modules
COPY . .
# Builds the reporter (public/reporter.mjs and its .sha256), the Terraform module and the Node.js runtimes it fetches
# for workspaces without Node.js (public/terraform/, public/runtime/: fetched from the npm registry by pinned
# version and integrity), and the app with .next/standalone.
RUN npm run build

# The maintenance task on a schedule (the Helm chart's cronjob mode): npm run maintenance needs the scripts and
# tsx, which the standalone runtime leaves out. docker build --target maintenance -t <image>:<version>-maintenance .
FROM build AS maintenance
USER node
CMD ["npm", "run", "maintenance"]

FROM node:20-bookworm-slim AS runtime
WORKDIR /app
ENV NODE_ENV=production \
    NEXT_TELEMETRY_DISABLED=1 \
    PORT=3000 \
    HOSTNAME=0.0.0.0 \
    STORAGE_DATA_DIR=/app/.data/pglite
# The code stays root's and read-only to the app; only the embedded database's folder is the app's to write.
COPY --from=build /app/.next/standalone ./
COPY --from=build /app/.next/static ./.next/static
COPY --from=build /app/public ./public
# The migrations and database functions, applied at start.
COPY --from=build /app/drizzle ./drizzle
RUN mkdir -p /app/.data && chown node:node /app/.data
VOLUME /app/.data
USER node
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + process.env.PORT + '/api/v1/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "server.js"]
