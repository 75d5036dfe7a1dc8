// The README's docker-compose.yml (PostgreSQL and two confab nodes behind nginx) cannot be started
// here (no Docker), so this keeps what can drift true: every node's environment is a configuration
// confab accepts (PostgreSQL storage, its own advertised address, the proxy trusted), the nodes share
// one data directory, and nginx's upstream names each node at the port the image listens on.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { loadConfig } from "../../src/config";

const ROOT = join(import.meta.dir, "..", "..");

interface Service {
  build?: string;
  image?: string;
  environment?: Record<string, string>;
  volumes?: string[];
}

/** Compose's own interpolation of `${NAME}`, `${NAME:-default}` and `${NAME:?error}` with these values. */
function interpolate(text: string, values: Record<string, string>): string {
  return text.replace(/\$\{(\w+)(?::[-?]([^}]*))?\}/g, (_, name: string, fallback?: string) => values[name] ?? fallback ?? "");
}

const compose = parse(interpolate(readFileSync(join(ROOT, "docker-compose.yml"), "utf8"), { CONFAB_DB_PASSWORD: "pw" }), { merge: true }) as {
  services: Record<string, Service>;
};
const nodes = Object.entries(compose.services).filter(([, s]) => s.build === ".");

describe("docker-compose.yml", () => {
  test("two confab nodes built from this repository's Dockerfile, a database and a proxy", () => {
    expect(nodes.map(([name]) => name)).toEqual(["confab-a", "confab-b"]);
    expect(compose.services.db?.image).toStartWith("postgres:");
    expect(compose.services.proxy?.image).toStartWith("nginx:");
  });

  test("each node's environment is a configuration confab accepts: PostgreSQL, its own address, the proxy trusted", () => {
    const advertised = new Set<string>();
    for (const [name, s] of nodes) {
      const config = loadConfig({}, s.environment!);
      expect(config.storage.driver).toBe("postgres");
      expect(config.storage.url).toBe("postgres://confab:pw@db:5432/confab");
      expect(config.cluster.advertiseUrl).toBe(`http://${name}:9991`);
      expect(config.trustedProxies.length).toBeGreaterThan(0);
      advertised.add(config.cluster.advertiseUrl);
    }
    expect(advertised.size).toBe(nodes.length);
  });

  test("the nodes share one data directory, at the image's data path", () => {
    const dockerfile = readFileSync(join(ROOT, "Dockerfile"), "utf8");
    const dataDir = /ENV CONFAB_DATA_DIR=(\S+)/.exec(dockerfile)![1]!;
    const mounts = nodes.map(([, s]) => s.volumes?.find((v) => v.endsWith(`:${dataDir}`)));
    expect(mounts[0]).toBeDefined();
    expect(new Set(mounts).size).toBe(1);
  });

  test("nginx sends every node's traffic sticky by client, and holds long-polls past the heartbeat", () => {
    const proxy = compose.services.proxy!;
    const conf = proxy.volumes!.find((v) => v.includes("nginx"))!.split(":")[0]!;
    const text = readFileSync(join(ROOT, conf), "utf8");
    const port = /EXPOSE (\d+)/.exec(readFileSync(join(ROOT, "Dockerfile"), "utf8"))![1];
    for (const [name] of nodes) expect(text).toContain(`server ${name}:${port}`);
    expect(text).toContain("ip_hash;");
    const readTimeout = Number(/proxy_read_timeout (\d+)s;/.exec(text)![1]);
    expect(readTimeout).toBeGreaterThan(loadConfig({}, {}).events.heartbeatSeconds);
  });
});
