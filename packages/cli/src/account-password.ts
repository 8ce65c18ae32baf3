import type { Io } from "./io.ts";
import { UsageError } from "./usage-error.ts";

/**
 * The password a command is given off the command line: all of standard input with
 * `--password-stdin` (one final line break dropped), else asked twice on the terminal without echo.
 * Never from an argument alone, where other users of the machine see it (`ps`).
 */
export async function passwordOffArgv(io: Io, login: string, fromStdin: boolean): Promise<string> {
  if (fromStdin) {
    if (!io.readStdin) throw new UsageError("--password-stdin: this command has no standard input to read");
    const password = (await io.readStdin()).replace(/\r?\n$/, "");
    if (password === "") throw new UsageError("--password-stdin: standard input held no password (e.g. --password-stdin < password.txt)");
    return password;
  }
  if (!io.askSecret) {
    throw new UsageError("no password given: pipe it with --password-stdin (e.g. --password-stdin < password.txt), or run the command on a terminal to be asked");
  }
  const password = await io.askSecret(`Password for "${login}": `);
  if (password === "") throw new UsageError("the password cannot be empty: run the command again");
  if ((await io.askSecret("The same password again: ")) !== password) throw new UsageError("the two passwords differ: run the command again");
  return password;
}
