import { tooSlow, unreachable, unreadable, type CallSite } from "./superset-failure.ts";

/** One answer of the server: its status and its body, parsed when it is JSON. */
export interface Exchange {
  readonly site: CallSite;
  readonly status: number;
  /** The parsed body; undefined when the body is empty or not JSON. */
  readonly json: unknown;
  readonly text: string;
}

export interface TransportOptions {
  /** The server's address, without trailing slash. */
  readonly address: string;
  /** The longest wait for one complete answer, body included. */
  readonly timeoutMs: number;
  readonly fetch: typeof fetch;
}

/** A request to the server that never waits past `timeoutMs`: network failures and time-outs become DASH0101/DASH0103. */
export async function exchange(
  options: TransportOptions,
  method: "GET" | "POST",
  path: string,
  init: { readonly bearer?: string; readonly json?: unknown } = {},
): Promise<Exchange> {
  const site: CallSite = { address: options.address, call: `${method} ${path.split("?")[0]}` };
  const headers: Record<string, string> = { accept: "application/json" };
  if (init.bearer) headers.authorization = `Bearer ${init.bearer}`;
  if (init.json !== undefined) headers["content-type"] = "application/json";
  // One signal for the headers and the body: a server that sends its headers, then stalls, is cut as well.
  const signal = AbortSignal.timeout(options.timeoutMs);
  try {
    const response = await options.fetch(`${options.address}${path}`, {
      method,
      headers,
      signal,
      redirect: "manual",
      ...(init.json === undefined ? {} : { body: JSON.stringify(init.json) }),
    });
    const text = await response.text();
    return { site, status: response.status, json: parseJson(text), text };
  } catch (error) {
    if (signal.aborted) throw tooSlow(site, options.timeoutMs);
    throw unreachable(site, error);
  }
}

/** The JSON body of a successful answer; anything else is DASH0104. */
export function jsonOf(answer: Exchange): unknown {
  if (answer.status < 200 || answer.status > 299) throw unreadable(answer.site, `status ${answer.status}${serverMessage(answer)}`);
  if (answer.json === undefined) throw unreadable(answer.site, `the body is not JSON (${preview(answer.text)})`);
  return answer.json;
}

/** The server's own words on a failed answer (`: Not authorized`), or nothing. */
export function serverMessage(answer: Exchange): string {
  const message = (answer.json as { message?: unknown; msg?: unknown } | undefined)?.message ?? (answer.json as { msg?: unknown } | undefined)?.msg;
  if (message === undefined || message === null) return "";
  return `: ${typeof message === "string" ? message : JSON.stringify(message)}`;
}

function parseJson(text: string): unknown {
  if (text.trim() === "") return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function preview(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  if (flat === "") return "empty body";
  return flat.length > 60 ? `${flat.slice(0, 60)}...` : flat;
}
