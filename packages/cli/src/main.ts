import { HTTP_RIGHTS, isLineageError, type HttpRight, type ImportCounts, type ImportReport } from "@lineage/core";
import { parseArgs } from "node:util";
import { createRequestLogger } from "@lineage/adapter-http";
import { SERVE_LIMIT_OPTIONS, SERVE_LIMIT_USAGE, flagsOfConfig, serveSettings } from "./serve-flags.ts";
import { openLineage, startLineage } from "./start-lineage.ts";
import { authOptionsOf } from "./config/auth-options.ts";
import { loadConfig } from "./config/load-config.ts";
import { tokenCreate, tokenList, tokenRevoke } from "./token-commands.ts";
import { searchReindex } from "./search-commands.ts";
import { UsageError } from "./usage-error.ts";
import { STORE_OPTIONS, STORE_USAGE, storeLocationOf } from "./store-location.ts";
import { postgresCommand } from "./postgres-command.ts";

const USAGE = `Usage:
  lineage serve ${STORE_USAGE} [--bundle FILE]... [--images DIR] [--port N] [--host H] [--config FILE]
               ${SERVE_LIMIT_USAGE}
  lineage import ${STORE_USAGE} FILE...
  lineage user add ${STORE_USAGE} LOGIN [--password P] [--role R]... [--locale L]
  lineage token create ${STORE_USAGE} --user LOGIN --route 'METHODS PATTERN'... [--expire SECONDS] [--oneshot] [--description TEXT]
  lineage token list ${STORE_USAGE}
  lineage token revoke ${STORE_USAGE} ID...
  lineage search reindex ${STORE_USAGE} [DOMAIN]
  lineage postgres [--dir DIR] [--port N]
(--database URL, or LINEAGE_DATABASE_URL: the data lives in that PostgreSQL database instead of SQLite in --data DIR.)`;

/** What a command prints and returns; injectable so tests read it. */
export interface Io {
  out(line: string): void;
  err(line: string): void;
}

const consoleIo: Io = { out: (line) => console.log(line), err: (line) => console.error(line) };

function parsePort(raw: string | undefined): number {
  const text = raw ?? process.env.PORT ?? "8080";
  if (!/^\d{1,5}$/.test(text) || Number(text) > 65535) throw new UsageError(`--port takes a port number, not "${text}"`);
  return Number(text);
}

function printReport(io: Io, path: string, report: ImportReport): void {
  const parts = (Object.entries(report) as Array<[string, ImportCounts]>)
    .map(([kind, counts]) => `${kind}: ${Object.entries(counts).map(([what, n]) => `${n} ${what}`).join(", ")}`);
  io.out(`${path}\n  ${parts.join("\n  ")}`);
}

async function serve(args: string[], io: Io): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      ...STORE_OPTIONS, bundle: { type: "string", multiple: true }, images: { type: "string" },
      port: { type: "string" }, host: { type: "string" },
      config: { type: "string" },
      ...SERVE_LIMIT_OPTIONS,
    },
  });
  // Checked before anything opens: a wrong key stops the start, naming the key.
  const loaded = values.config ? await loadConfig(values.config) : undefined;
  const settings = serveSettings({ ...flagsOfConfig(loaded?.config.limits), ...values });
  const auth = loaded && (await authOptionsOf(loaded));
  const logger = createRequestLogger({ level: settings.logLevel });
  const location = storeLocationOf(values);
  const running = await startLineage({
    limits: settings.limits,
    logger,
    synchronous: settings.synchronous,
    dataDir: location.dataDir,
    ...(location.databaseUrl ? { databaseUrl: location.databaseUrl } : {}),
    bundles: values.bundle ?? [],
    port: parsePort(values.port),
    ...(values.images ? { imagesDir: values.images } : {}),
    ...(values.host ? { host: values.host } : {}),
    ...(auth ? { auth } : {}),
    ...(loaded?.config.dashboards ? { dashboards: loaded.config.dashboards } : {}),
  });
  io.out(`Lineage is listening on ${running.url}`);
  let stopping = false;
  // SIGTERM or SIGINT: finish what is in flight, close the store, exit 0; a second signal stops at once.
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(1);
    stopping = true;
    io.out(`Lineage: ${signal}, shutting down: unready for ${settings.shutdownDelayMs / 1000} s, then at most ${settings.shutdownGraceMs / 1000} s for the requests in flight`);
    running.shutdown(settings.shutdownGraceMs, settings.shutdownDelayMs).then(
      ({ unfinished }) => {
        if (unfinished > 0) io.err(`lineage: ${unfinished} request(s) cut at the end of the grace period`);
        io.out("Lineage stopped");
        logger.flush(() => process.exit(0));
      },
      (error: unknown) => {
        io.err(`lineage: ${(error as Error).message}`);
        logger.flush(() => process.exit(1));
      },
    );
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  return new Promise<number>(() => {});
}

async function importCommand(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: STORE_OPTIONS });
  if (positionals.length === 0) throw new UsageError("lineage import needs at least one bundle file");
  const { platform, imports } = await openLineage(storeLocationOf(values), positionals);
  await platform.store.close();
  imports.forEach((report, i) => printReport(io, positionals[i] ?? "", report));
  return 0;
}

async function userAdd(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      ...STORE_OPTIONS, password: { type: "string" }, role: { type: "string", multiple: true },
      group: { type: "string", multiple: true }, locale: { type: "string" }, right: { type: "string", multiple: true },
      name: { type: "string" },
    },
  });
  const [login, ...extra] = positionals;
  if (!login || extra.length > 0) throw new UsageError("lineage user add takes one LOGIN");
  const rights = values.right?.map((right) => right.toUpperCase());
  const badRight = rights?.find((right) => !(HTTP_RIGHTS as readonly string[]).includes(right));
  if (badRight) throw new UsageError(`--right takes one of ${HTTP_RIGHTS.join(", ")}, not "${badRight}"`);
  const { platform } = await openLineage(storeLocationOf(values));
  try {
    const account = await platform.addUser({
      login,
      password: values.password,
      roles: values.role,
      groups: values.group,
      locale: values.locale,
      displayName: values.name,
      rights: rights as HttpRight[] | undefined,
    });
    io.out(`Account "${account.login}" added (id ${account.id}).`);
    return 0;
  } finally {
    await platform.store.close();
  }
}

/** The `lineage` command: returns the exit status. */
export async function main(argv: readonly string[], io: Io = consoleIo): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case "serve": return await serve(rest, io);
      case "import": return await importCommand(rest, io);
      case "postgres": return await postgresCommand(rest, io);
      case "token":
        if (rest[0] === "create") return await tokenCreate(rest.slice(1), io);
        if (rest[0] === "list") return await tokenList(rest.slice(1), io);
        if (rest[0] === "revoke") return await tokenRevoke(rest.slice(1), io);
        throw new UsageError(`unknown command "token ${rest[0] ?? ""}"`);
      case "search":
        if (rest[0] === "reindex") return await searchReindex(rest.slice(1), io);
        throw new UsageError(`unknown command "search ${rest[0] ?? ""}"`);
      case "user":
        if (rest[0] === "add") return await userAdd(rest.slice(1), io);
        throw new UsageError(`unknown command "user ${rest[0] ?? ""}"`);
      case undefined: case "help": case "--help": case "-h":
        io.out(USAGE);
        return command === undefined ? 2 : 0;
      default:
        throw new UsageError(`unknown command "${command}"`);
    }
  } catch (error) {
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith("ERR_PARSE_ARGS")) {
      io.err(`lineage: ${(error as Error).message}\n${USAGE}`);
      return 2;
    }
    if (isLineageError(error)) {
      io.err(`lineage: ${error.message}`);
      const problems = (error.data as { problems?: Array<{ path: string; message: string }> } | undefined)?.problems ?? [];
      for (const problem of problems) io.err(`  ${problem.path}: ${problem.message}`);
      return 1;
    }
    io.err(`lineage: ${(error as Error).message}`);
    return 1;
  }
}
