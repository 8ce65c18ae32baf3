/** A command-line mistake (an unknown command, a flag's unusable value): main() prints it with the usage, status 2. */
export class UsageError extends Error {}
