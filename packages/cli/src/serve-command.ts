import { Option, type Command } from "commander";
import { createRequestLogger } from "@lineage/adapter-http";
import { formatImportReport, overwriteWarning } from "@lineage/core";
import { authOptionsOf } from "./config/auth-options.ts";
import { loadConfig } from "./config/load-config.ts";
import { namedFunctions } from "./config/named-functions.ts";
import type { SearchCallable, TransitionHook } from "@lineage/core";
import type { Io } from "./io.ts";
import type { Run } from "./command-run.ts";
import { flagsOfConfig, limitFlagsOf, serveSettings, withServeLimitOptions } from "./serve-flags.ts";
import { startLineage } from "./start-lineage.ts";
import { storeLocationOf, withStoreOptions, type StoreFlags } from "./store-location.ts";
import { parsePort } from "./port-number.ts";
import { collect } from "./repeated-flag.ts";

interface ServeFlags extends StoreFlags {
  readonly bundle?: string[];
  readonly seed?: string[];
  readonly images?: string;
  readonly port: string;
  readonly host: string;
  readonly config?: string;
  readonly [limit: string]: unknown;
}

/** `lineage serve`: imports, listens, and shuts down cleanly on SIGTERM or SIGINT. */
export function serveCommand(program: Command, io: Io, run: Run): void {
  const command = withStoreOptions(program.command("serve").description("open (create, migrate) the store, import bundles, serve the HTTP API"))
    .addOption(new Option("--bundle <file>", "a bundle imported at every start, repeatable: elements changed since its last import are overwritten, and the count is printed").argParser(collect))
    .addOption(new Option("--seed <file>", "a bundle imported only when the store holds no Smart Structure yet (a new data directory or database), repeatable: later starts keep what users changed").argParser(collect))
    .addOption(new Option("--images <dir>", "the Images directory (structure icons)").default(undefined, "images/ beside the first bundle or seed"))
    .addOption(new Option("--port <n>", "the TCP port; 0 picks a free one").env("PORT").default("8080"))
    .addOption(new Option("--host <address>", "the address to listen on").default("127.0.0.1"))
    .addOption(new Option("--config <file>", "a configuration file: authentication, dashboards, limits, events, webhooks, hooks and search callables (docs/configuration.md)"));
  withServeLimitOptions(command).action((flags: ServeFlags) => run(() => serve(flags, io)));
}

async function serve(flags: ServeFlags, io: Io): Promise<number> {
  const port = parsePort(flags.port);
  // Checked before anything opens: a wrong key stops the start, naming the key.
  const loaded = flags.config ? await loadConfig(flags.config) : undefined;
  const settings = serveSettings({ ...flagsOfConfig(loaded?.config.limits), ...limitFlagsOf(flags) });
  const auth = loaded && (await authOptionsOf(loaded));
  const hooks = loaded?.config.hooks ? await namedFunctions(loaded.config.hooks, loaded.dir, "hooks") : {};
  const searchCallables = loaded?.config.searchCallables ? await namedFunctions(loaded.config.searchCallables, loaded.dir, "searchCallables") : {};
  const logger = createRequestLogger({ level: settings.logLevel });
  const location = storeLocationOf(flags);
  const running = await startLineage({
    limits: settings.limits,
    logger,
    synchronous: settings.synchronous,
    dataDir: location.dataDir,
    ...(location.databaseUrl ? { databaseUrl: location.databaseUrl } : {}),
    bundles: flags.bundle ?? [],
    seeds: flags.seed ?? [],
    port,
    ...(flags.images ? { imagesDir: flags.images } : {}),
    host: flags.host,
    ...(auth ? { auth } : {}),
    hooks: hooks as Record<string, TransitionHook>,
    searchCallables: searchCallables as Record<string, SearchCallable>,
    ...(loaded?.config.dashboards ? { dashboards: loaded.config.dashboards } : {}),
    ...(loaded?.config.events?.retentionDays === undefined ? {} : { eventRetentionDays: loaded.config.events.retentionDays }),
    ...(loaded?.config.webhooks ? { webhooks: loaded.config.webhooks } : {}),
  });
  for (const seed of running.skippedSeeds) io.out(`${seed}: not imported, the store already holds data (lineage import ${seed} imports it anyway)`);
  running.imported.forEach((path, i) => {
    const report = running.imports[i]!;
    logger.info({ bundle: path, elements: report.elements }, "bundle imported");
    const warning = overwriteWarning(path, report);
    if (warning) {
      io.err(`lineage serve: ${warning}`);
      logger.warn({ bundle: path, overwritten: report.elements.overwritten }, warning);
    }
    io.out(`${path}\n  ${formatImportReport(report).split("\n").join("\n  ")}`);
  });
  io.out(`Lineage is listening on ${running.url}`);
  io.out(`The console: ${running.url}/console/`);
  let stopping = false;
  // SIGTERM or SIGINT: finish what is in flight, close the store, exit 0; a second signal stops at once.
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(1);
    stopping = true;
    io.out(`Lineage: ${signal}, shutting down: unready for ${settings.shutdownDelayMs / 1000} s, then at most ${settings.shutdownGraceMs / 1000} s for the requests in flight`);
    running.shutdown(settings.shutdownGraceMs, settings.shutdownDelayMs).then(
      ({ unfinished }) => {
        if (unfinished > 0) io.err(`lineage serve: ${unfinished} request(s) cut at the end of the grace period`);
        io.out("Lineage stopped");
        logger.flush(() => process.exit(0));
      },
      (error: unknown) => {
        io.err(`lineage serve: ${(error as Error).message}`);
        logger.flush(() => process.exit(1));
      },
    );
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  return new Promise<number>(() => {});
}
