# The release path that CI tests (.ci/release-check.mjs): build, stage dist/ with the production
# node_modules (scripts/stage-release.mjs), run `node dist/src/main.js`. Not built in CI (no docker
# there); CI runs the same scripts on a clean copy.

FROM node:24-bookworm-slim AS build
WORKDIR /build
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && node scripts/stage-release.mjs /release

FROM node:24-bookworm-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=4000 \
    LEDGER_DATA_DIR=/data \
    MALLOC_ARENA_MAX=2
WORKDIR /app
# owned by root and read-only to the service; only the embedded database's directory is writable
COPY --from=build /release ./
RUN mkdir /data && chown node:node /data
VOLUME /data
USER node
EXPOSE 4000
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + process.env.PORT + '/readyz').then((r) => process.exit(r.status === 200 ? 0 : 1), () => process.exit(1))"]
# the memory settings of package.json's start (docs/decisions/process-memory-flags.md)
CMD ["node", "--max-semi-space-size=16", "--heap-growing-percent=50", "dist/src/main.js"]
