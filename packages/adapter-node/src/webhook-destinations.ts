import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import ipaddr from "ipaddr.js";
import { LineageError, type WebhookDestinations } from "@lineage/core";

export interface WebhookDestinationOptions {
  /** Accept hosts on loopback, private and link-local networks (the configuration's `webhooks.allowPrivateNetworks`); false by default. */
  readonly allowPrivateNetworks?: boolean | undefined;
}

/** What a range is called in a refusal. */
const RANGE_NAMES: Readonly<Record<string, string>> = {
  loopback: "a loopback address", private: "a private address", linkLocal: "a link-local address", uniqueLocal: "a private (unique local) address",
  carrierGradeNat: "a private (carrier-grade NAT) address", unspecified: "an unspecified address", multicast: "a multicast address",
  broadcast: "a broadcast address",
};

/** What a refusal adds: how to lift it. */
export const PRIVATE_NETWORKS_HINT = "set webhooks.allowPrivateNetworks: true to allow private networks";

/**
 * Why an address may not receive webhooks ("127.0.0.1, a loopback address"), or undefined when it
 * may: only public unicast addresses may (an IPv4 address mapped in IPv6 is judged as IPv4),
 * unless private networks are allowed.
 */
export function addressRefusal(address: string, allowPrivateNetworks = false): string | undefined {
  if (allowPrivateNetworks) return undefined;
  if (!ipaddr.isValid(address)) return `${address} is not an IP address`;
  const range = ipaddr.process(address).range();
  if (range === "unicast") return undefined;
  return `${address}, ${RANGE_NAMES[range] ?? `a reserved (${range}) address`}`;
}

/** The host of a URL as the resolver takes it (IPv6 literals without their brackets). */
export function hostOf(url: URL): string {
  return url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
}

/**
 * The webhook destinations of a deployment: a URL must be http(s), and every address its host
 * resolves to must be public (addressRefusal) unless private networks are allowed. The sender checks
 * the address it connects to again at each attempt (webhook-sender.ts): a name that resolves
 * elsewhere later is caught there.
 * @example
 * const platform = createPlatform({ store, webhookDestinations: createWebhookDestinations({ allowPrivateNetworks: false }) });
 */
export function createWebhookDestinations(options: WebhookDestinationOptions = {}): WebhookDestinations {
  const allow = options.allowPrivateNetworks ?? false;
  const refuse = (why: string): never => {
    throw new LineageError("WEBHOOK0400", [why]);
  };
  return {
    async check(raw) {
      let url: URL;
      try {
        url = new URL(raw);
      } catch {
        return refuse("url must be an absolute http or https URL");
      }
      if (url.protocol !== "http:" && url.protocol !== "https:") refuse("url must be an absolute http or https URL");
      if (url.username || url.password) refuse("url must not carry a user name or password");
      if (allow) return;
      const host = hostOf(url);
      let addresses: string[];
      if (isIP(host)) addresses = [host];
      else {
        try {
          addresses = (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);
        } catch (error) {
          return refuse(`the host ${host} cannot be resolved (${(error as NodeJS.ErrnoException).code ?? "unknown"})`);
        }
      }
      for (const address of addresses) {
        const why = addressRefusal(address);
        if (why) refuse(`the host ${host} resolves to ${why} (${PRIVATE_NETWORKS_HINT})`);
      }
    },
  };
}
