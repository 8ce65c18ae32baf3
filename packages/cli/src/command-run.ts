/**
 * Runs a command's work; its resolved number is the exit status. Apart from the program so that
 * the command modules, which the program imports, need not import it back.
 */
export type Run = (work: () => Promise<number>) => Promise<void>;
