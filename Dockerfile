# One container: the API, its docs page, the embedded database and local files under /data.
ARG BUN_VERSION=1.4
FROM oven/bun:${BUN_VERSION}-slim AS deps
WORKDIR /app
COPY package.json bun.lock ./
RUN bun install --frozen-lockfile --production

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
RUN mkdir -p /data && chown bun:bun /data
USER bun
VOLUME /data
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD ["bun", "-e", "const r = await fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/health'); process.exit(r.ok ? 0 : 1)"]
# SIGTERM drains requests in flight and closes the database before exiting
STOPSIGNAL SIGTERM
CMD ["bun", "src/index.ts"]
