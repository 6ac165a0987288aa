# The portal as a container image: the client built in a build stage, production dependencies in
# another, and a small final image that runs as the unprivileged `node` user. docs/operations.md
# ("A container with PostgreSQL") shows it in use with compose.yaml. system/container-recipe.test.ts
# runs these stages' commands on a clean copy of the tree.

# 1. The client, built with the development dependencies (Vite, Tailwind).
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

# 2. The production dependencies only.
FROM node:20-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund

# 3. The image: the server's sources (run by tsx), the migrations, the scripts operators run, and
#    the built client.
FROM node:20-bookworm-slim
ENV NODE_ENV=production \
    PORT=5000 \
    HOST=0.0.0.0 \
    DATA_DIR=/data \
    CLIENT_DIR=/app/dist/client
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY package.json package-lock.json tsconfig.json ./
COPY src ./src
COPY drizzle ./drizzle
COPY scripts ./scripts
COPY --from=build /app/dist/client ./dist/client
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME /data
EXPOSE 5000
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 5000) + '/api/health/ready').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "--import", "tsx", "src/server/main.ts"]
