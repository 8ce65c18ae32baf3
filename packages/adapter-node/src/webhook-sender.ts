import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { isIP } from "node:net";
import { Webhook } from "standardwebhooks";
import { Agent, request } from "undici";
import type { AttemptOutcome, ClaimedDelivery } from "@lineage/core";
import { addressRefusal, hostOf, PRIVATE_NETWORKS_HINT } from "./webhook-destinations.ts";

/** How long an attempt may take, from connecting to the answer's end. */
export const ATTEMPT_TIMEOUT_MS = 10_000;

export interface WebhookSenderOptions {
  /** Send to loopback, private and link-local addresses too (`webhooks.allowPrivateNetworks`); false by default. */
  readonly allowPrivateNetworks?: boolean | undefined;
  /** ATTEMPT_TIMEOUT_MS by default. */
  readonly timeoutMs?: number | undefined;
  /** Connections kept open per receiver's origin; 64 by default. */
  readonly connections?: number | undefined;
}

/** Sends a delivery's attempts over HTTP. */
export interface WebhookSender {
  /** POSTs the delivery's body, signed; answers the status, or the error that came before one. Never throws. */
  send(delivery: ClaimedDelivery): Promise<AttemptOutcome>;
  close(): Promise<void>;
}

/** The Standard Webhooks headers of one attempt: `webhook-id` is the delivery's, the same at every attempt. */
export function signedHeaders(delivery: Pick<ClaimedDelivery, "id" | "secret" | "body">, at: Date): Record<string, string> {
  return {
    "content-type": "application/json",
    "user-agent": "Lineage-Webhooks/1",
    "webhook-id": delivery.id,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": new Webhook(delivery.secret).sign(delivery.id, at, delivery.body),
  };
}

class RefusedAddress extends Error {
  readonly code = "ELINEAGE_REFUSED_ADDRESS";
}

/**
 * The sender of webhook attempts: a POST of the body with the Standard Webhooks headers, through a
 * connection pool whose every connection is checked as it is made (the addresses the host resolves
 * to then, so a name that moved onto a private network is refused at delivery time too). Redirects
 * are not followed (a 3xx is the attempt's answer); an attempt ends at the timeout, answer included.
 * @example
 * const sender = createWebhookSender({ allowPrivateNetworks: false });
 * const outcome = await sender.send(claimed); // { statusCode: 204 } or { error: "timed out after 10 s" }
 */
export function createWebhookSender(options: WebhookSenderOptions = {}): WebhookSender {
  const allow = options.allowPrivateNetworks ?? false;
  const timeoutMs = options.timeoutMs ?? ATTEMPT_TIMEOUT_MS;
  const agent = new Agent({
    connections: options.connections ?? 64,
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    connect: {
      timeout: timeoutMs,
      lookup(hostname: string, lookupOptions: object, callback: (error: Error | null, address: string | LookupAddress[], family?: number) => void) {
        dnsLookup(hostname, lookupOptions, (error: Error | null, address: string | LookupAddress[], family?: number) => {
          if (error) return callback(error, address, family);
          const addresses = Array.isArray(address) ? address.map((entry) => entry.address) : [address];
          for (const one of addresses) {
            const why = addressRefusal(one, allow);
            if (why) return callback(new RefusedAddress(`refused: ${hostname} resolves to ${why} (${PRIVATE_NETWORKS_HINT})`), address, family);
          }
          callback(null, address, family);
        });
      },
    } as never,
  });
  return {
    async send(delivery) {
      let url: URL;
      try {
        url = new URL(delivery.url);
      } catch {
        return { error: `refused: ${delivery.url} is not a URL` };
      }
      // An IP literal is connected to without a look-up: it is checked here.
      const host = hostOf(url);
      const literalRefusal = isIP(host) ? addressRefusal(host, allow) : undefined;
      if (literalRefusal) return { error: `refused: ${literalRefusal} (${PRIVATE_NETWORKS_HINT})` };
      try {
        const answer = await request(url, {
          method: "POST", headers: signedHeaders(delivery, new Date()), body: delivery.body, dispatcher: agent,
          signal: AbortSignal.timeout(timeoutMs),
        });
        // The answer's body is read to its end (and thrown away), so that the connection serves again.
        await answer.body.dump({ limit: 64 * 1024 });
        return { statusCode: answer.statusCode };
      } catch (error) {
        return { error: attemptError(error, timeoutMs) };
      }
    },
    close: () => agent.close(),
  };
}

/** What an attempt's failure is called in the deliveries' log. */
function attemptError(error: unknown, timeoutMs: number): string {
  const seen = new Set<unknown>();
  for (let cause = error; cause instanceof Error && !seen.has(cause); cause = cause.cause) {
    seen.add(cause);
    if (cause instanceof RefusedAddress) return cause.message;
    const code = (cause as NodeJS.ErrnoException).code;
    if (cause.name === "TimeoutError" || code === "UND_ERR_HEADERS_TIMEOUT" || code === "UND_ERR_BODY_TIMEOUT" || code === "UND_ERR_CONNECT_TIMEOUT") {
      return `timed out after ${timeoutMs / 1000} s`;
    }
    if (code === "ECONNREFUSED") return "connection refused";
    if (code === "ENOTFOUND" || code === "EAI_AGAIN") return `host not found (${code})`;
    if (code === "ECONNRESET" || code === "UND_ERR_SOCKET") return "connection closed before the answer";
    if (typeof code === "string" && code !== "UND_ERR_ABORTED") return `${code}: ${cause.message}`;
  }
  return error instanceof Error ? error.message : String(error);
}
