import { toBase64, toBase64Url, toHex } from "../crypto/encoding.ts";
import { randomBytes } from "../crypto/random-bytes.ts";

/** A new webhook secret: `whsec_` and 24 random bytes in base64, the Standard Webhooks form. */
export function newWebhookSecret(): string {
  return `whsec_${toBase64(randomBytes(24))}`;
}

/** A new webhook id: `wh_` and 8 random bytes in hex. */
export function newWebhookId(): string {
  return `wh_${toHex(randomBytes(8))}`;
}

/** A new delivery id, the `webhook-id` header of its every attempt: `msg_` and 16 random bytes, base64url. */
export function newDeliveryId(): string {
  return `msg_${toBase64Url(randomBytes(16))}`;
}
