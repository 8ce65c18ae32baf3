import { HTTP_RIGHTS, LineageError, type HttpRight, type Platform } from "@lineage/core";
import type { MiddlewareHandler } from "hono";
import type { HttpEnv } from "./http-env.ts";

/** Decodes `Authorization: Basic …`; undefined when the header is not Basic or is malformed. */
export function parseBasicCredentials(header: string): { login: string; password: string } | undefined {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  if (!match?.[1]) return undefined;
  const decoded = Buffer.from(match[1], "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 0) return undefined;
  return { login: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/** The global right a method needs (HEAD and OPTIONS read, PATCH writes). */
export function rightForMethod(method: string): HttpRight {
  const upper = method.toUpperCase();
  if (upper === "HEAD" || upper === "OPTIONS") return "GET";
  if (upper === "PATCH") return "PUT";
  return (HTTP_RIGHTS as readonly string[]).includes(upper) ? (upper as HttpRight) : "GET";
}

export interface BasicAuthenticationOptions {
  readonly platform: Platform;
  readonly realm?: string;
}

/**
 * Authenticates /api/ requests by HTTP Basic: no credentials, a scheme we do
 * not know, or wrong credentials all give 401 with the envelope and
 * `WWW-Authenticate: Basic`. Then the account's global right for the method.
 */
export function basicAuthentication(options: BasicAuthenticationOptions): MiddlewareHandler<HttpEnv> {
  const challenge = `Basic realm="${options.realm ?? "Lineage"}", charset="UTF-8"`;
  return async (c, next) => {
    const header = c.req.header("authorization");
    const refuse = (error: LineageError) => {
      c.header("WWW-Authenticate", challenge);
      throw error;
    };
    if (!header) return refuse(new LineageError("AUTH0401", [], { userMessage: "Access not granted" }));
    const scheme = /^([A-Za-z0-9]+)\s/.exec(header)?.[1] ?? header;
    const credentials = parseBasicCredentials(header);
    if (!credentials) {
      return refuse(scheme.toLowerCase() === "basic"
        ? new LineageError("AUTH0401", [], { userMessage: "Access not granted" })
        : new LineageError("AUTH0402", [scheme]));
    }
    const principal = await options.platform.authenticate(credentials.login, credentials.password);
    if (!principal) return refuse(new LineageError("AUTH0401", [], { userMessage: "Username and/or password is incorrect" }));
    const right = rightForMethod(c.req.method);
    if (!principal.account.rights.includes(right)) throw new LineageError("CRUD0105", [right]);
    c.set("principal", principal);
    await next();
  };
}
