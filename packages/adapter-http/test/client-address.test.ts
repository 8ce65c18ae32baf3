import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { createClientAddressResolver, isProxyAddress, type ClientAddressOptions } from "../src/index.ts";

/** The addresses the resolver finds for a request from `peer` with these headers. */
async function addressesOf(options: ClientAddressOptions, peer: string, headers: Record<string, string> = {}, rawHeaders?: string[]) {
  const resolve = createClientAddressResolver(options);
  const app = new Hono().get("/", (c) => c.json(resolve(c)));
  const response = await app.request("/", { headers }, { incoming: { socket: { remoteAddress: peer }, ...(rawHeaders ? { rawHeaders } : {}) } });
  return (await response.json()) as { client: string; peer: string };
}

describe("the client address", () => {
  it("is the connection's when no proxy is trusted, whatever the headers say", async () => {
    expect(await addressesOf({}, "198.51.100.7", { "x-forwarded-for": "203.0.113.1", forwarded: "for=203.0.113.2" }))
      .toEqual({ client: "198.51.100.7", peer: "198.51.100.7" });
    // A dual-stack socket's IPv4 client is the IPv4 address.
    expect(await addressesOf({}, "::ffff:198.51.100.7")).toEqual({ client: "198.51.100.7", peer: "::ffff:198.51.100.7" });
  });

  it("is what a trusted proxy appended, never what the client forged to its left", async () => {
    const options = { trustedProxies: ["127.0.0.1"] };
    expect(await addressesOf(options, "127.0.0.1", { "x-forwarded-for": "10.9.9.9, 203.0.113.7" })).toEqual({ client: "203.0.113.7", peer: "127.0.0.1" });
    expect(await addressesOf(options, "::ffff:127.0.0.1", { "x-forwarded-for": "203.0.113.7" })).toMatchObject({ client: "203.0.113.7" });
    // Not from the proxy: the header is the client's own word, and ignored.
    expect(await addressesOf(options, "198.51.100.7", { "x-forwarded-for": "203.0.113.7" })).toMatchObject({ client: "198.51.100.7" });
    // The proxy sent none: the proxy is the client (a health check, a request it made itself).
    expect(await addressesOf(options, "127.0.0.1")).toMatchObject({ client: "127.0.0.1" });
  });

  it("walks back over every trusted proxy of a chain, and no further", async () => {
    const options = { trustedProxies: ["127.0.0.1", "10.0.0.0/8", "fd00::/8"] };
    expect(await addressesOf(options, "127.0.0.1", { "x-forwarded-for": "198.51.100.1, 203.0.113.7, 10.1.2.3, fd00::1" }))
      .toMatchObject({ client: "203.0.113.7" });
    // Several header lines are one list, as Node reads them.
    expect(await addressesOf(options, "127.0.0.1", {}, ["X-Forwarded-For", "198.51.100.1, 203.0.113.7", "x-forwarded-for", "10.1.2.3"]))
      .toMatchObject({ client: "203.0.113.7" });
    // Every hop trusted: the first one is the client.
    expect(await addressesOf(options, "127.0.0.1", { "x-forwarded-for": "10.0.0.5, 10.0.0.6" })).toMatchObject({ client: "10.0.0.5" });
  });

  it("takes entries with ports, brackets and names as proxies write them", async () => {
    const options = { trustedProxies: ["::1"] };
    expect(await addressesOf(options, "::1", { "x-forwarded-for": "203.0.113.7:51234" })).toMatchObject({ client: "203.0.113.7" });
    expect(await addressesOf(options, "::1", { "x-forwarded-for": "[2001:DB8::7]:443" })).toMatchObject({ client: "2001:db8::7" });
    expect(await addressesOf(options, "::1", { "x-forwarded-for": "unknown" })).toMatchObject({ client: "unknown" });
    expect(await addressesOf(options, "::1", { "x-forwarded-for": ` ${"x".repeat(500)} ` })).toMatchObject({ client: "x".repeat(64) });
    expect(await addressesOf(options, "::1", { "x-forwarded-for": " , " })).toMatchObject({ client: "::1" });
  });

  it("reads the Forwarded header (RFC 7239) instead when told to, and only then", async () => {
    const forwarded = { trustedProxies: ["127.0.0.1"], forwardedHeader: "forwarded" as const };
    const headers = { forwarded: 'for=192.0.2.43;proto=https, For="[2001:db8:cafe::17]:4711";by=203.0.113.60', "x-forwarded-for": "198.51.100.9" };
    expect(await addressesOf(forwarded, "127.0.0.1", headers)).toMatchObject({ client: "2001:db8:cafe::17" });
    expect(await addressesOf(forwarded, "127.0.0.1", { forwarded: "for=_hidden" })).toMatchObject({ client: "_hidden" });
    expect(await addressesOf({ trustedProxies: ["127.0.0.1"] }, "127.0.0.1", headers)).toMatchObject({ client: "198.51.100.9" });
  });

  it("refuses a trusted proxy that is no address or range", () => {
    for (const good of ["127.0.0.1", "10.0.0.0/8", "::1", "fd00::/8", "0.0.0.0/0", "::/0"]) expect(isProxyAddress(good)).toBe(true);
    for (const bad of ["localhost", "10.0.0.0/33", "::1/129", "10.0.0.0/8/8", "10.0.0/8", "", "1.2.3.4/x"]) expect(isProxyAddress(bad)).toBe(false);
    expect(() => createClientAddressResolver({ trustedProxies: ["127.0.0.1", "proxy.local"] })).toThrow(/proxy\.local/);
  });
});
