const BAR_WIDTH = 30;

export interface ProgressBarOptions {
  /** Where the lines go when stderr is no terminal: one per tenth. */
  readonly line: (text: string) => void;
  /** Redraws one bar in place on stderr; by default when stderr is a terminal. */
  readonly terminal?: boolean | undefined;
  /** How `done/total` reads after the percentage (`450/1000` by default). */
  readonly amount?: ((done: number, total: number) => string) | undefined;
}

/**
 * A progress bar redrawn in place on a terminal (stderr); elsewhere (a pipe,
 * a log, a test) one line per tenth, so the output stays readable.
 * @example
 * const tick = progressBar("Reindexing", { line: io.out });
 * tick(450, 1000); // Reindexing 40% 450/1000 (a line per tenth without a terminal)
 */
export function progressBar(label: string, options: ProgressBarOptions): (done: number, total: number) => void {
  const terminal = options.terminal ?? process.stderr.isTTY === true;
  const amount = options.amount ?? ((done: number, total: number) => `${done}/${total}`);
  let lastTenth = -1;
  let lastDrawn = "";
  return (done, total) => {
    const ratio = total === 0 ? 1 : Math.min(1, done / total);
    const percent = Math.floor(ratio * 100);
    if (terminal) {
      const filled = Math.round(ratio * BAR_WIDTH);
      const bar = `\r${label} [${"#".repeat(filled)}${".".repeat(BAR_WIDTH - filled)}] ${percent}% ${amount(done, total)}${ratio === 1 ? "\n" : ""}`;
      // Batches come faster than the eye: redraw when what shows changed.
      if (bar === lastDrawn) return;
      lastDrawn = bar;
      process.stderr.write(bar);
      return;
    }
    const tenth = Math.floor(ratio * 10);
    if (tenth === lastTenth) return;
    lastTenth = tenth;
    options.line(`${label} ${percent}% ${amount(done, total)}`);
  };
}
