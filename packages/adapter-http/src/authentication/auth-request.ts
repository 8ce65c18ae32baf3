import type { AuthRequest } from "@lineage/core";
import type { Context } from "hono";
import { cookieOf } from "../request-cookie.ts";
import { headerOf } from "../request-header.ts";
import { formFields } from "./form-fields.ts";

/** The peer's address as the socket gives it; proxies' X-Forwarded-For is not trusted (it is the client's to forge). */
export function clientAddressOf(c: Context): string {
  const incoming = (c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming;
  return incoming?.socket?.remoteAddress ?? "unknown";
}

/** The Hono request seen through the core's AuthRequest; form fields are read once, through Hono's body cache. */
export function toAuthRequest(c: Context): AuthRequest {
  const url = new URL(c.req.url);
  // Methods rather than arrow functions: tsx names every arrow function kept in a property, at each
  // request. And no getter: an object literal with one is built slowly, and keeps the GC busy.
  return {
    method: c.req.method.toUpperCase(),
    path: url.pathname,
    url,
    clientAddress: clientAddressOf(c),
    isApi: url.pathname === "/api" || url.pathname.startsWith("/api/"),
    header(name) {
      return headerOf(c, name);
    },
    cookie(name) {
      return cookieOf(c, name);
    },
    stamp: c.get("stamp"),
    async variable(name) {
      const query = url.searchParams.get(name);
      if (query !== null) return query;
      if (c.req.method === "GET" || c.req.method === "HEAD") return undefined;
      return (await formFields(c))[name];
    },
  };
}
