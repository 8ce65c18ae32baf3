import { CommanderError, type Command } from "commander";
import { isLineageError } from "@lineage/core";
import { consoleIo, type Io } from "./io.ts";
import { commandPath, lineageProgram } from "./lineage-program.ts";
import { usageMessage } from "./usage-message.ts";
import { UsageError } from "./usage-error.ts";

export type { Io } from "./io.ts";

/**
 * The `lineage` command: returns the exit status. 0 done; 1 the work failed (a refused bundle, a
 * domain error); 2 a mistake on the command line, told on one line that names the flag and the fix.
 */
export async function main(argv: readonly string[], io: Io = consoleIo()): Promise<number> {
  let status = 0;
  const program = lineageProgram(io, async (work) => {
    status = await work();
  });
  // The deepest command commander went into, to name it in messages.
  let current: Command = program;
  program.hook("preSubcommand", (_parent, sub) => {
    current = sub;
  });
  for (const command of program.commands) {
    command.hook("preSubcommand", (_parent, sub) => {
      current = sub;
    });
  }
  if (argv.length === 0) {
    io.err(program.helpInformation().replace(/\n$/, ""));
    return 2;
  }
  // `lineage help user add` is `lineage user add --help`: commander's own help command takes one word only.
  const args = argv[0] === "help" ? [...argv.slice(1), "--help"] : [...argv];
  try {
    await program.parseAsync(args, { from: "user" });
    return status;
  } catch (error) {
    return reported(error, current, io);
  }
}

function reported(error: unknown, command: Command, io: Io): number {
  const path = commandPath(command);
  if (error instanceof CommanderError) {
    if (error.code === "commander.helpDisplayed" || error.code === "commander.version") return 0;
    // A command group given without its subcommand: commander printed the group's help on stderr.
    if (error.code === "commander.help") return 2;
    io.err(usageMessage(error, command));
    return 2;
  }
  if (error instanceof UsageError) {
    io.err(`${path}: ${error.message}`);
    return 2;
  }
  if (isLineageError(error)) {
    io.err(`${path}: ${error.message}`);
    const problems = (error.data as { problems?: Array<{ path: string; message: string }> } | undefined)?.problems ?? [];
    if (problems.length > 1 || problems[0]?.path.startsWith("$")) for (const problem of problems) io.err(`  ${problem.path}: ${problem.message}`);
    return 1;
  }
  io.err(`${path}: ${(error as Error).message}`);
  return 1;
}
