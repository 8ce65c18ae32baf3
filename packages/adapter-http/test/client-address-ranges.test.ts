import { describe, expect, it } from "vitest";
import { createClientAddressResolver, type ClientAddressOptions } from "../src/index.ts";

/*
 * What the trusted ranges mean, where proxy-addr's own range test would have read them otherwise
 * (client-address.ts walks the chain with proxy-addr, and tests each address with Node's BlockList).
 */

function clientOf(options: ClientAddressOptions, peer: string, forwardedFor: string): string {
  const c = { env: { incoming: { socket: { remoteAddress: peer }, rawHeaders: ["X-Forwarded-For", forwardedFor] } } };
  return createClientAddressResolver(options)(c as never).client;
}

describe("trusted ranges", () => {
  it("take every address with a range of length 0", () => {
    expect(clientOf({ trustedProxies: ["0.0.0.0/0"] }, "198.51.100.7", "203.0.113.7, 192.0.2.1")).toBe("203.0.113.7");
    expect(clientOf({ trustedProxies: ["::/0"] }, "2001:db8::1", "2001:db8::7, 2001:db8::2")).toBe("2001:db8::7");
  });

  it("take IPv4 clients into an IPv6 range that holds their ::ffff: form", () => {
    expect(clientOf({ trustedProxies: ["::/0"] }, "198.51.100.7", "203.0.113.7")).toBe("203.0.113.7");
    expect(clientOf({ trustedProxies: ["::ffff:10.0.0.0/104"] }, "10.1.2.3", "203.0.113.7")).toBe("203.0.113.7");
    expect(clientOf({ trustedProxies: ["fd00::/8"] }, "10.1.2.3", "203.0.113.7")).toBe("10.1.2.3");
  });

  it("read short or numeric IPv4 forms in a chain as names, never as a trusted proxy", () => {
    for (const name of ["127.1", "0", "0x7f000001", "2130706433"]) {
      expect(clientOf({ trustedProxies: ["127.0.0.0/8", "0.0.0.0/32"] }, "127.0.0.1", `203.0.113.7, ${name}`)).toBe(name);
    }
  });
});
