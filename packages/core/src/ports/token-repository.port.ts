import type { AccessToken } from "../auth/access-token.ts";

/** Access tokens, stored hashed. */
export interface TokenRepository {
  create(token: AccessToken): void;
  byHash(hash: string): AccessToken | undefined;
  byId(id: string): AccessToken | undefined;
  /** Every token, oldest first. */
  list(): AccessToken[];
  /** Revokes a token by public id; true when it existed. */
  delete(id: string): boolean;
  /**
   * Deletes the token with this hash and says whether this very call deleted
   * it: of two concurrent consumptions of a oneshot token, exactly one gets true.
   */
  consume(hash: string): boolean;
  /** Forgets the tokens expired at `now` (ISO); returns how many. */
  deleteExpired(now: string): number;
}
