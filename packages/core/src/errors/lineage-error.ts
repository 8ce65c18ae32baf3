import { errorCodeDefinition, type ErrorCode } from "./error-codes.ts";

export interface LineageErrorOptions {
  /** Text shown to users instead of the formatted code text. */
  readonly userMessage?: string;
  /** Where the resource can be found instead (e.g. the trash URI of a deleted element). */
  readonly uri?: string;
  readonly data?: unknown;
  /** The `data` of the error envelope, for a refusal that tells the client how to go on (EVENT0410: `{ oldest }`); null when absent. */
  readonly answer?: Readonly<Record<string, unknown>>;
  /** The reason phrase, when the code's default does not fit (CRUD0200 for an unknown family: "Family not found"). */
  readonly reason?: string;
}

function format(text: string, args: readonly unknown[]): string {
  let i = 0;
  return text.replace(/%[sd]/g, () => String(args[i++] ?? ""));
}

/** The one error class of the domain: a spec code with its arguments. */
export class LineageError extends Error {
  readonly code: ErrorCode;
  /** The values the code's text was formatted with. */
  readonly args: readonly unknown[];
  readonly status: number;
  readonly reason: string;
  readonly userMessage: string | undefined;
  readonly uri: string | undefined;
  readonly data: unknown;
  readonly answer: Readonly<Record<string, unknown>> | undefined;

  constructor(code: ErrorCode, args: readonly unknown[] = [], options: LineageErrorOptions = {}) {
    const definition = errorCodeDefinition(code);
    super(format(definition.text, args));
    this.name = "LineageError";
    this.code = code;
    this.args = args;
    this.status = definition.status;
    this.reason = options.reason ?? definition.reason;
    this.userMessage = options.userMessage;
    this.uri = options.uri;
    this.data = options.data;
    this.answer = options.answer;
  }
}

/** True when `error` is a LineageError (also across duplicated module instances). */
export function isLineageError(error: unknown): error is LineageError {
  return error instanceof LineageError || (error instanceof Error && error.name === "LineageError" && "code" in error);
}
