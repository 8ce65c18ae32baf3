import { createInterface } from "node:readline/promises";
import { askHidden } from "./hidden-prompt.ts";

/** What a command prints and reads; injectable so that tests drive it. */
export interface Io {
  out(line: string): void;
  err(line: string): void;
  /** All of standard input as text (`--password-stdin`). */
  readStdin?(): Promise<string>;
  /** Asks a question on the terminal without echoing the answer; absent when there is no terminal. */
  askSecret?: ((question: string) => Promise<string>) | undefined;
  /** Asks a yes-or-no question on the terminal (no unless the answer is y or yes); absent when there is no terminal. */
  confirm?: ((question: string) => Promise<boolean>) | undefined;
}

async function askYesNo(question: string): Promise<boolean> {
  const prompt = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return /^\s*y(es)?\s*$/i.test(await prompt.question(question));
  } finally {
    prompt.close();
  }
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  let text = "";
  stream.setEncoding("utf8");
  for await (const chunk of stream) text += chunk as string;
  return text;
}

/** The process's console: stdout, stderr, stdin, and a prompt when stdin and stderr are a terminal. */
export function consoleIo(): Io {
  // A reader that stops early (`lineage --help | head`) closes the pipe: that ends the command quietly, as it does for any Unix tool.
  process.stdout.once("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") process.exit(0);
    throw error;
  });
  const terminal = process.stdin.isTTY === true && process.stderr.isTTY === true;
  return {
    out: (line) => console.log(line),
    err: (line) => console.error(line),
    readStdin: () => readAll(process.stdin),
    askSecret: terminal ? (question) => askHidden(question, process.stdin, process.stderr) : undefined,
    confirm: terminal ? askYesNo : undefined,
  };
}
