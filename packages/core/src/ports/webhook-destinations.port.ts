/**
 * Where webhooks may send: a URL whose host resolves to a loopback, private or link-local address is
 * refused unless the deployment allows private networks. The check needs name resolution, which only
 * an adapter has.
 */
export interface WebhookDestinations {
  /** Throws LineageError WEBHOOK0400 naming why `url` may not receive webhooks. */
  check(url: string): Promise<void>;
}
