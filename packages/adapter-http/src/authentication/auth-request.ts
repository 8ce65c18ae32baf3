import type { AuthRequest } from "@lineage/core";
import type { Context } from "hono";
import { cookieOf } from "../request-cookie.ts";
import { headerOf } from "../request-header.ts";
import { createClientAddressResolver, type RequestAddresses } from "./client-address.ts";
import { formFields } from "./form-fields.ts";

/** No proxy trusted: the connection's own address. */
const connectionAddress = createClientAddressResolver();

/** The client's address: the connection's, or what a trusted proxy forwarded when `addresses` trusts one. */
export function clientAddressOf(c: Context, addresses: (c: Context) => RequestAddresses = connectionAddress): string {
  return addresses(c).client;
}

/**
 * The Hono request seen through the core's AuthRequest; form fields are read once, through Hono's body cache.
 * `addresses`: how its client address is found (HttpAuth.addresses); the connection's by default.
 */
export function toAuthRequest(c: Context, addresses: (c: Context) => RequestAddresses = connectionAddress): AuthRequest {
  const url = new URL(c.req.url);
  const { client, peer } = addresses(c);
  // Methods rather than arrow functions: tsx names every arrow function kept in a property, at each
  // request. And no getter: an object literal with one is built slowly, and keeps the GC busy.
  return {
    method: c.req.method.toUpperCase(),
    path: url.pathname,
    url,
    clientAddress: client,
    peerAddress: peer,
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
