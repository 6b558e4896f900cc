# One container: the API, its docs page, the web console, the embedded database and local files under /data.
ARG BUN_VERSION=1.4
FROM oven/bun:${BUN_VERSION}-slim AS deps
WORKDIR /app
COPY package.json bun.lock ./
# --production still installs what only type-checking uses, because Elysia and Drizzle name it as
# optional peers (typescript with its native compiler, @types/bun, bun-types), and libsql's build for
# the other C library beside the one this base runs (musl beside glibc): none of it, nor type
# declarations and source maps, is loaded by the service. (--omit=peer would also drop required peers.)
RUN bun install --frozen-lockfile --production \
 && rm -rf node_modules/typescript node_modules/@typescript node_modules/bun-types node_modules/@types \
 && if ldd --version 2>&1 | grep -qi musl; then rm -rf node_modules/@libsql/*-gnu; else rm -rf node_modules/@libsql/*-musl; fi \
 && find node_modules -type f \( -name '*.d.ts' -o -name '*.d.mts' -o -name '*.d.cts' -o -name '*.map' \) -delete

# the web console: built with the development dependencies (React, the component library, the bundler's inputs), none of which the image keeps
FROM oven/bun:${BUN_VERSION}-slim AS console
WORKDIR /app
COPY package.json bun.lock tsconfig.json ./
RUN bun install --frozen-lockfile
COPY src ./src
RUN bun src/console/build.ts

FROM oven/bun:${BUN_VERSION}-slim
WORKDIR /app
ENV NODE_ENV=production \
    PORT=8080 \
    DATABASE_URL=file:/data/workforce.db \
    STORAGE_URL=file:/data/files
COPY --from=deps /app/node_modules ./node_modules
COPY package.json bun.lock tsconfig.json ./
COPY drizzle ./drizzle
COPY src ./src
COPY --from=console /app/src/console/dist ./src/console/dist
RUN mkdir -p /data && chown bun:bun /data
USER bun
VOLUME /data
EXPOSE 8080
# asks /health where the service listens (HOST, PORT); podman keeps it only in Docker format (podman build --format docker)
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 CMD ["bun", "src/health-check.ts"]
# SIGTERM drains requests in flight and closes the database before exiting
STOPSIGNAL SIGTERM
CMD ["bun", "src/index.ts"]
