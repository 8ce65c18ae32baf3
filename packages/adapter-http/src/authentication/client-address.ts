import type { Context } from "hono";
import type { IncomingMessage } from "node:http";
import { BlockList, isIP } from "node:net";
import proxyAddr from "proxy-addr";
import { headerOf } from "../request-header.ts";

/** The header a trusted proxy writes the client's address in. */
export type ForwardedHeader = "x-forwarded-for" | "forwarded";

/** Where the client address of a request comes from (docs/deployment.md, Behind a reverse proxy). */
export interface ClientAddressOptions {
  /**
   * The reverse proxies' addresses or CIDR ranges (`127.0.0.1`, `10.0.0.0/8`, `::1`, `fd00::/8`).
   * Only a connection from one of them is believed about the client; none by default.
   */
  readonly trustedProxies?: readonly string[];
  /** The header those proxies write: `x-forwarded-for` (nginx's `$proxy_add_x_forwarded_for`, the default) or `forwarded` (RFC 7239). */
  readonly forwardedHeader?: ForwardedHeader;
}

/** The two addresses of a request: its client's, and the connection's (the proxy's, behind one). */
export interface RequestAddresses {
  readonly client: string;
  readonly peer: string;
}

/** Longest forwarded entry kept when it is no IP address (`unknown`, an obfuscated name). */
const MAX_NAME = 64;

/**
 * The client address of requests: the connection's, unless it comes from a
 * trusted proxy; then the forwarded chain is read from its right end (what
 * the nearest proxy wrote) leftwards, past every trusted proxy, to the first
 * address that is not one (proxy-addr's walk). Entries a client wrote itself sit to the left of
 * what its proxy appended, so they are never reached unless that proxy is trusted.
 * Throws on an entry of `trustedProxies` that is no address or range.
 */
export function createClientAddressResolver(options: ClientAddressOptions = {}): (c: Context) => RequestAddresses {
  const isTrusted = trustedProxyList(options.trustedProxies ?? []);
  const header = options.forwardedHeader ?? "x-forwarded-for";
  return (c) => {
    const peer = peerOf(c);
    // Most requests come from no proxy: their headers are not even read.
    if (!isTrusted?.(peer)) return { client: unmapped(peer), peer };
    const value = headerOf(c, header);
    const chain = value ? (header === "forwarded" ? forwardedFor(value) : value.split(",")) : [];
    return { client: unmapped(proxyAddr(forwardedRequest(peer, chain), isTrusted)), peer };
  };
}

/** True for an IP address or a CIDR range such as `10.0.0.0/8` or `fd00::/8`: what `trustedProxies` accepts. */
export function isProxyAddress(entry: string): boolean {
  const [address = "", bits, extra] = entry.trim().split("/");
  const family = isIP(address);
  if (family === 0 || extra !== undefined) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
}

/**
 * The trust test proxy-addr walks the chain with; undefined when no proxy is trusted. Node's
 * BlockList, not proxy-addr's own `compile`: that one refuses `0.0.0.0/0`, which the configuration
 * takes, reads `0` or `127.1` as addresses where the configuration reads names, and does not count
 * IPv4 clients in an IPv6 range that holds their `::ffff:` form (`::/0`).
 */
function trustedProxyList(entries: readonly string[]): ((address: string) => boolean) | undefined {
  if (entries.length === 0) return undefined;
  const list = new BlockList();
  for (const entry of entries) {
    if (!isProxyAddress(entry)) throw new Error(`trustedProxies: "${entry}" is no IP address or CIDR range (e.g. 10.0.0.0/8)`);
    const [address = "", bits] = entry.trim().split("/");
    const type = isIP(address) === 4 ? "ipv4" : "ipv6";
    if (bits === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(bits), type);
  }
  return (address) => {
    const family = isIP(address);
    return family !== 0 && list.check(address, family === 4 ? "ipv4" : "ipv6");
  };
}

/**
 * What proxy-addr reads of a request (the connection's address and X-Forwarded-For), with the
 * chain's entries as addresses: without their quotes, brackets or port, so that a proxy writing
 * `10.1.2.3:5555` is still recognised as trusted; the Forwarded header's `for=` values in its place.
 */
function forwardedRequest(peer: string, chain: readonly string[]): IncomingMessage {
  const entries = chain.map(normalizedEntry).filter((entry) => entry !== undefined);
  return { socket: { remoteAddress: peer }, headers: { "x-forwarded-for": entries.join(",") } } as unknown as IncomingMessage;
}

function peerOf(c: Context): string {
  const incoming = (c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming;
  return incoming?.socket?.remoteAddress ?? "unknown";
}

/** A dual-stack socket shows IPv4 clients as `::ffff:192.0.2.1`: the same client as `192.0.2.1`. */
function unmapped(address: string): string {
  return address.startsWith("::ffff:") && address.includes(".") ? address.slice(7) : address;
}

/** The `for=` values of a Forwarded header (RFC 7239), in order. */
function forwardedFor(value: string): string[] {
  const found: string[] = [];
  for (const element of value.split(",")) {
    for (const pair of element.split(";")) {
      const equals = pair.indexOf("=");
      if (equals > 0 && pair.slice(0, equals).trim().toLowerCase() === "for") found.push(pair.slice(equals + 1));
    }
  }
  return found;
}

/** An entry without quotes, brackets or port; an IP address in its usual form; undefined when empty. */
function normalizedEntry(raw: string): string | undefined {
  let entry = raw.trim().replace(/^"(.*)"$/s, "$1").trim();
  if (!entry) return undefined;
  const bracketed = /^\[([^\]]*)\](?::\d+)?$/.exec(entry);
  if (bracketed) entry = bracketed[1] ?? "";
  else if (/^[\d.]+:\d+$/.test(entry)) entry = entry.slice(0, entry.indexOf(":"));
  return isIP(entry) ? entry.toLowerCase() : entry.slice(0, MAX_NAME).toLowerCase();
}
