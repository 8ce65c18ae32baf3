import type { Context } from "hono";
import { parse } from "hono/utils/cookie";
import { headerOf } from "./request-header.ts";

/** A request cookie, as Hono's getCookie reads it, but from the Cookie header alone (headerOf: no fetch Headers built). */
export function cookieOf(c: Context, name: string): string | undefined {
  const header = headerOf(c, "cookie");
  return header ? parse(header, name)[name] : undefined;
}
