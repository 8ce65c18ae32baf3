import { Command, type Option } from "commander";
import type { Run } from "./command-run.ts";
import { importCommand } from "./import-command.ts";
import type { Io } from "./io.ts";
import { postgresCommand } from "./postgres-command.ts";
import { searchCommands } from "./search-commands.ts";
import { serveCommand } from "./serve-command.ts";
import { tokenCommands } from "./token-commands.ts";
import { typesCommand } from "./types-command.ts";
import { webhookCommands } from "./webhook-commands.ts";
import { userCommands } from "./user-commands.ts";

/** Help lines are wrapped at this width whatever the terminal, so that the help reads the same everywhere. */
const HELP_WIDTH = 100;

/**
 * Each flag's description, then in parentheses its default (the value given to commander, or the
 * text a command gives when the default is decided later, e.g. by the configuration file) and the
 * environment variable that stands in for it.
 */
function optionDescription(option: Option): string {
  const extra: string[] = [];
  const shown = option.defaultValueDescription ?? (option.defaultValue === undefined || option.isBoolean() ? undefined : String(option.defaultValue));
  if (shown !== undefined) extra.push(`default: ${shown}`);
  if (option.envVar) extra.push(`env: ${option.envVar}`);
  return extra.length ? `${option.description} (${extra.join(", ")})` : option.description;
}

/**
 * The `lineage` program: every command with its flags, what each does and its default, as
 * `lineage [COMMAND] --help` prints them. Commander never exits the process: main() turns its
 * errors into one line and an exit status.
 */
export function lineageProgram(io: Io, run: Run): Command {
  const program = new Command("lineage")
    .usage("COMMAND [flags]")
    .description("Lineage: an open content platform (docs/README.md). `lineage COMMAND --help` tells what each flag does and its default.")
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.out(text.replace(/\n$/, "")),
      writeErr: (text) => io.err(text.replace(/\n$/, "")),
      // main() writes every mistake itself, on one line.
      outputError: () => {},
      getOutHelpWidth: () => HELP_WIDTH,
      getErrHelpWidth: () => HELP_WIDTH,
    })
    .configureHelp({ optionDescription, sortSubcommands: false })
    .helpOption("-h, --help", "print this help")
    .helpCommand("help [command...]", "print the help of a command (help user add)")
    .showSuggestionAfterError(true);
  serveCommand(program, io, run);
  importCommand(program, io, run);
  userCommands(program, io, run);
  tokenCommands(program, io, run);
  webhookCommands(program, io, run);
  searchCommands(program, io, run);
  postgresCommand(program, io, run);
  typesCommand(program, io, run);
  program.addHelpText("after", () => `\nEvery command, with what each flag does and its default:\n\n${leaves(program).map((leaf) => leaf.helpInformation().trim()).join("\n\n")}`);
  return program;
}

/** The commands that run something (`user add`, not `user`), in the order of the help. */
function leaves(command: Command): Command[] {
  return command.commands.flatMap((sub) => (sub.commands.length > 0 ? leaves(sub) : sub.name() === "help" ? [] : [sub]));
}

/** The words that name a command (`lineage user add`), from a command of the program. */
export function commandPath(command: Command): string {
  const names: string[] = [];
  for (let at: Command | null = command; at; at = at.parent) names.unshift(at.name());
  return names.join(" ");
}
