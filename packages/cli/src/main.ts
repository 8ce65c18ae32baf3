import { HTTP_RIGHTS, isLineageError, type HttpRight, type ImportReport } from "@lineage/core";
import { parseArgs } from "node:util";
import { openLineage, startLineage } from "./start-lineage.ts";

const USAGE = `Usage:
  lineage serve [--data DIR] [--bundle FILE]... [--images DIR] [--port N] [--host H]
  lineage import [--data DIR] FILE...
  lineage user add [--data DIR] LOGIN [--password P] [--role R]... [--locale L]`;

/** What a command prints and returns; injectable so tests read it. */
export interface Io {
  out(line: string): void;
  err(line: string): void;
}

const consoleIo: Io = { out: (line) => console.log(line), err: (line) => console.error(line) };

class UsageError extends Error {}

function parsePort(raw: string | undefined): number {
  const text = raw ?? process.env.PORT ?? "8080";
  if (!/^\d{1,5}$/.test(text) || Number(text) > 65535) throw new UsageError(`--port takes a port number, not "${text}"`);
  return Number(text);
}

function printReport(io: Io, path: string, report: ImportReport): void {
  const parts = Object.entries(report)
    .map(([kind, counts]) => `${kind}: ${Object.entries(counts).map(([what, n]) => `${n} ${what}`).join(", ")}`);
  io.out(`${path}\n  ${parts.join("\n  ")}`);
}

async function serve(args: string[], io: Io): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      data: { type: "string" }, bundle: { type: "string", multiple: true }, images: { type: "string" },
      port: { type: "string" }, host: { type: "string" },
    },
  });
  const running = await startLineage({
    dataDir: values.data ?? "./data",
    bundles: values.bundle ?? [],
    port: parsePort(values.port),
    ...(values.images ? { imagesDir: values.images } : {}),
    ...(values.host ? { host: values.host } : {}),
  });
  io.out(`Lineage is listening on ${running.url}`);
  const stop = () => {
    running.close().then(() => process.exit(0), () => process.exit(1));
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  return new Promise<number>(() => {});
}

async function importCommand(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { data: { type: "string" } } });
  if (positionals.length === 0) throw new UsageError("lineage import needs at least one bundle file");
  const { platform, imports } = await openLineage(values.data ?? "./data", positionals);
  platform.store.close();
  imports.forEach((report, i) => printReport(io, positionals[i] ?? "", report));
  return 0;
}

async function userAdd(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      data: { type: "string" }, password: { type: "string" }, role: { type: "string", multiple: true },
      group: { type: "string", multiple: true }, locale: { type: "string" }, right: { type: "string", multiple: true },
      name: { type: "string" },
    },
  });
  const [login, ...extra] = positionals;
  if (!login || extra.length > 0) throw new UsageError("lineage user add takes one LOGIN");
  const rights = values.right?.map((right) => right.toUpperCase());
  const badRight = rights?.find((right) => !(HTTP_RIGHTS as readonly string[]).includes(right));
  if (badRight) throw new UsageError(`--right takes one of ${HTTP_RIGHTS.join(", ")}, not "${badRight}"`);
  const { platform } = await openLineage(values.data ?? "./data");
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
    platform.store.close();
  }
}

/** The `lineage` command: returns the exit status. */
export async function main(argv: readonly string[], io: Io = consoleIo): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case "serve": return await serve(rest, io);
      case "import": return await importCommand(rest, io);
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
