import type { Command, CommanderError } from "commander";
import { commandPath } from "./lineage-program.ts";

const flagOf = (flags: string) => flags.split(/[ ,]/).find((part) => part.startsWith("--")) ?? flags;

/**
 * A mistake commander found, as one line that names the flag or argument and the fix
 * (`lineage serve: unknown flag --prot (did you mean --port?); lineage serve --help lists the flags`).
 */
export function usageMessage(error: CommanderError, command: Command): string {
  const path = commandPath(command);
  const help = `${path} --help`;
  const text = error.message.replace(/^error: /, "");
  const suggestion = /\n\(Did you mean (.+)\?\)/.exec(text)?.[1];
  const maybe = suggestion ? ` (did you mean ${suggestion}?)` : "";
  let match: RegExpExecArray | null;
  switch (error.code) {
    case "commander.unknownOption":
      match = /unknown option '([^']*)'/.exec(text);
      return `${path}: unknown flag ${match?.[1] ?? ""}${maybe}; ${help} lists the flags`;
    case "commander.unknownCommand":
      match = /unknown command '([^']*)'/.exec(text);
      return `${path}: unknown command "${match?.[1] ?? ""}"${maybe}; ${help} lists the commands`;
    case "commander.optionMissingArgument":
      match = /option '([^']*)'/.exec(text);
      return `${path}: ${flagOf(match?.[1] ?? "")} needs a value: ${match?.[1] ?? ""}; ${help} tells what it takes`;
    case "commander.missingMandatoryOptionValue":
      match = /option '([^']*)'/.exec(text);
      return `${path}: ${flagOf(match?.[1] ?? "")} is required: ${match?.[1] ?? ""}; ${help} tells what it takes`;
    case "commander.missingArgument":
      match = /argument '([^']*)'/.exec(text);
      return `${path}: ${(match?.[1] ?? "").toUpperCase()} is missing: ${path} ${command.usage()}`;
    case "commander.excessArguments":
      return `${path}: too many arguments (${text.replace(/^too many arguments[^.]*\. /, "").replace(/\.$/, "")}): ${path} ${command.usage()}`;
    default:
      return `${path}: ${text.replace(/\n/g, " ")}; ${help}`;
  }
}
