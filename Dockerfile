# syntax=docker/dockerfile:1
# Build: npm installs Bun (a devDependency) and compiles confab into one self-contained executable.
FROM node:20-bookworm-slim AS build
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json ./
COPY cli ./cli
COPY src ./src
COPY migrations ./migrations
COPY scripts ./scripts
RUN npm run build && ./dist/confab version

# Run: the executable alone (it needs glibc, hence Debian slim rather than Alpine), as an unprivileged
# user, with the data directory on a volume.
FROM debian:bookworm-slim
# git: the repositories confab keeps (plugin sources) are git repositories; ca-certificates for HTTPS.
RUN apt-get update \
 && apt-get install -y --no-install-recommends git ca-certificates \
 && rm -rf /var/lib/apt/lists/*
RUN useradd --system --uid 10001 --user-group --home-dir /data --no-create-home --shell /usr/sbin/nologin confab \
 && mkdir -p /data && chown confab:confab /data && chmod 700 /data
COPY --from=build /src/dist/confab /usr/local/bin/confab
ENV CONFAB_DATA_DIR=/data
VOLUME ["/data"]
WORKDIR /data
USER confab
EXPOSE 9991
STOPSIGNAL SIGTERM
# The image has no curl: confab asks its own GET /health (red when the database failed its check).
HEALTHCHECK --interval=30s --timeout=10s --start-period=30s --retries=3 CMD ["confab", "health"]
ENTRYPOINT ["confab"]
CMD ["serve", "--host", "0.0.0.0"]
