import type { ReadStream } from "node:tty";

/**
 * Asks a question on a terminal and reads one line without echoing it (a password): the terminal
 * goes to raw mode for the time of the answer. Enter ends it, Backspace erases, Ctrl-C rejects.
 */
export function askHidden(question: string, input: ReadStream, output: NodeJS.WritableStream): Promise<string> {
  return new Promise((resolve, reject) => {
    output.write(question);
    const wasRaw = input.isRaw;
    let answer: string[] = [];
    const finish = (error?: Error) => {
      input.off("data", onData);
      input.setRawMode(wasRaw);
      input.pause();
      output.write("\n");
      if (error) reject(error);
      else resolve(answer.join(""));
    };
    const onData = (chunk: Buffer | string) => {
      for (const char of String(chunk)) {
        if (char === "\r" || char === "\n" || char === "\u0004") return finish();
        if (char === "\u0003") return finish(new Error("interrupted"));
        if (char === "\u007f" || char === "\b") answer = answer.slice(0, -1);
        else if (char >= " ") answer.push(char);
      }
    };
    input.setRawMode(true);
    input.setEncoding("utf8");
    input.on("data", onData);
    input.resume();
  });
}
