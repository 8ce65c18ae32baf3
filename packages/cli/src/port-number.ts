import { UsageError } from "./usage-error.ts";

/** A TCP port of `--port`: 0 lets the system choose one. */
export function parsePort(text: string): number {
  if (!/^\d{1,5}$/.test(text) || Number(text) > 65535) throw new UsageError(`--port takes a port number from 0 to 65535, not "${text}"`);
  return Number(text);
}
