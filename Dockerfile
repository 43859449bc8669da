# syntax=docker/dockerfile:1
# Node 24 LTS, pinned to a release (bump it deliberately); the code also runs on Node 20.12+ and 22 (package.json engines).
ARG NODE_IMAGE=node:24.11.1-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /app
# better-sqlite3 compiles from source when no prebuilt binary can be fetched.
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci --no-fund --no-audit
COPY nest-cli.json tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npm run build && npm prune --omit=dev

FROM ${NODE_IMAGE}
# tini as PID 1: it forwards SIGTERM to node and reaps children, so node drains on a stop instead of being killed.
RUN apt-get update && apt-get install -y --no-install-recommends tini && rm -rf /var/lib/apt/lists/*
ENV NODE_ENV=production PORT=3000 DATA_DIR=/app/data
# V8 otherwise lets the heap grow far past what is live (about 45 MB): RSS after `npm run bench` 220 MB without. The
# young generation is 4 MB: 8 MB halved the scavenges of the writes (about +5% on the adds) but took the service to
# 158 MB under load with an empty cache, over its 150 MB; 4 MB measured 130-133 MB against 140-142 (BENCHMARKS.md).
ENV NODE_OPTIONS="--max-semi-space-size=4 --max-old-space-size=192"
WORKDIR /app
COPY --from=build --chown=node:node /app/package.json ./
COPY --from=build --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/dist ./dist
RUN mkdir -p /app/data && chown node:node /app/data
USER node
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.OPS_PORT||process.env.PORT||3000)+'/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# node itself, not npm: npm would stand between the signal and node.
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "dist/main.js"]
