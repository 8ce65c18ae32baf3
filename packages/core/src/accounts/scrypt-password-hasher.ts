import { scryptAsync } from "@noble/hashes/scrypt.js";
import { randomBytes } from "../crypto/random-bytes.ts";
import { timingSafeEqual } from "../crypto/timing-safe-equal.ts";
import type { PasswordHasher } from "../ports/password-hasher.port.ts";
import { DEFAULT_SCRYPT_COST, formatScryptHash, parseScryptHash, SCRYPT_KEY_BYTES, SCRYPT_SALT_BYTES, type ScryptCost } from "./scrypt-hash.ts";

function derive(password: string, salt: Uint8Array, length: number, cost: ScryptCost): Promise<Uint8Array> {
  // Node's limit for the same parameters: a stored hash cannot ask for more memory here than there.
  const { N, r, p } = cost;
  return scryptAsync(password, salt, { N, r, p, dkLen: length, maxmem: 256 * N * r });
}

/**
 * scrypt with a per-password salt, in plain JavaScript: the platform's default,
 * for any runtime and for tests. It gives the event loop back every 10 ms,
 * but runs on it, about 1.5 times as long as Node's native scrypt; a Node
 * server passes @lineage/adapter-node's hasher instead, which runs in a
 * worker thread. Both read and write the same stored format (scrypt-hash.ts),
 * whose cost can be raised without breaking old hashes.
 */
export function createScryptPasswordHasher(cost: Partial<ScryptCost> = {}): PasswordHasher {
  return scryptPasswordHasher(derive, cost);
}

/** Derives a scrypt key: the one part a hasher of the stored format has of its own. */
export type ScryptDerive = (password: string, salt: Uint8Array, length: number, cost: ScryptCost) => Promise<Uint8Array>;

/** A PasswordHasher of the `scrypt$N$r$p$salt$key` format over a scrypt implementation (the portable one, Node's native one). */
export function scryptPasswordHasher(deriveKey: ScryptDerive, cost: Partial<ScryptCost> = {}): PasswordHasher {
  const chosen: ScryptCost = { N: cost.N ?? DEFAULT_SCRYPT_COST.N, r: cost.r ?? DEFAULT_SCRYPT_COST.r, p: cost.p ?? DEFAULT_SCRYPT_COST.p };
  return {
    async hash(password) {
      const salt = randomBytes(SCRYPT_SALT_BYTES);
      const key = await deriveKey(password, salt, SCRYPT_KEY_BYTES, chosen);
      return formatScryptHash({ ...chosen, salt, key });
    },
    async verify(password, stored) {
      const parsed = parseScryptHash(stored);
      if (!parsed) return false;
      const actual = await deriveKey(password, parsed.salt, parsed.key.length, parsed);
      return timingSafeEqual(actual, parsed.key);
    },
  };
}
