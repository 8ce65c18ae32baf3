import { toHex } from "../crypto/encoding.ts";
import { randomBytes } from "../crypto/random-bytes.ts";
import { sha256Hex } from "../crypto/sha256.ts";
import { LineageError } from "../errors/lineage-error.ts";
import type { TokenRoute } from "./token-route.ts";

/** A stored access token. The token itself is never kept: only its SHA-256 `hash`. */
export interface AccessToken {
  /** Public identifier, shown in lists and used to revoke; not a credential. */
  readonly id: string;
  readonly hash: string;
  readonly accountId: number;
  readonly routes: readonly TokenRoute[];
  /** ISO date-time; null: never expires. */
  readonly expiresAt: string | null;
  readonly oneshot: boolean;
  readonly description: string;
  readonly createdAt: string;
}

/** How long a token lives: seconds from now, a date, or -1/false for ever (api-v2.md, Token). */
export type TokenExpiration = number | Date | false;

/** 20 random bytes in hex (40 characters), the original's token format. */
export function newTokenSecret(): string {
  return toHex(randomBytes(20));
}

/** A new public token id: 8 random bytes in hex. */
export function newTokenId(): string {
  return toHex(randomBytes(8));
}

/** The stored form of a token secret (or session id): its SHA-256, hex. 160 random bits need no salt or slow hash. */
export function secretHash(secret: string): string {
  return sha256Hex(secret);
}

/** The expiry date of a token created `now` (null for never); refuses 0, negative seconds other than -1, and past dates. */
export function expiryDate(expiration: TokenExpiration | undefined, now: Date): string | null {
  if (expiration === undefined || expiration === false || expiration === -1) return null;
  if (expiration instanceof Date) {
    if (Number.isNaN(expiration.getTime())) throw new LineageError("AUTH0410", ["the expiration date is not a date"]);
    if (expiration.getTime() <= now.getTime()) throw new LineageError("AUTH0410", ["the expiration date is already past"]);
    return expiration.toISOString();
  }
  if (!Number.isSafeInteger(expiration) || expiration <= 0) {
    throw new LineageError("AUTH0410", [`expiration must be a positive number of seconds, a date, or -1 (not ${String(expiration)})`]);
  }
  const at = new Date(now.getTime() + expiration * 1000);
  // Past the last date JavaScript holds (year 275760), toISOString would throw.
  if (Number.isNaN(at.getTime())) throw new LineageError("AUTH0410", [`expiration is too far in the future (${expiration} s)`]);
  return at.toISOString();
}

/** True when the token has expired at `now`. */
export function isTokenExpired(token: Pick<AccessToken, "expiresAt">, now: Date): boolean {
  return token.expiresAt !== null && Date.parse(token.expiresAt) <= now.getTime();
}
