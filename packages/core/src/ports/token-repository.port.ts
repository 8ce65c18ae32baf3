import type { AccessToken } from "../auth/access-token.ts";

/** Access tokens, stored hashed. */
export interface TokenRepository {
  create(token: AccessToken): Promise<void>;
  byHash(hash: string): Promise<AccessToken | undefined>;
  byId(id: string): Promise<AccessToken | undefined>;
  /** Every token, oldest first. */
  list(): Promise<AccessToken[]>;
  /** Revokes a token by public id; true when it existed. */
  delete(id: string): Promise<boolean>;
  /**
   * Deletes the token with this hash and says whether this very call deleted
   * it: of two concurrent consumptions of a oneshot token, exactly one gets true.
   */
  consume(hash: string): Promise<boolean>;
  /** Forgets the tokens expired at `now` (ISO); returns how many. */
  deleteExpired(now: string): Promise<number>;
}
