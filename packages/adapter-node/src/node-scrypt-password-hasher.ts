import { randomBytes, scrypt, timingSafeEqual } from "node:crypto";
import {
  DEFAULT_SCRYPT_COST, formatScryptHash, parseScryptHash, SCRYPT_KEY_BYTES, SCRYPT_SALT_BYTES,
  type PasswordHasher, type ScryptCost,
} from "@lineage/core";

function derive(password: string, salt: Uint8Array, length: number, { N, r, p }: ScryptCost): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password, salt, length, { N, r, p, maxmem: 256 * N * r }, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

/**
 * scrypt by Node's native implementation, on libuv's thread pool: the event
 * loop goes on serving requests while a password is hashed or checked (32 MiB
 * and about a tenth of a second at the default cost). What a Node server
 * passes as the platform's hasher; it reads and writes the core's stored
 * format, so hashes made by the core's portable hasher verify here and the
 * other way round.
 *
 * @example createPlatform({ store, hasher: createNodeScryptPasswordHasher() })
 */
export function createNodeScryptPasswordHasher(cost: Partial<ScryptCost> = {}): PasswordHasher {
  const chosen: ScryptCost = { N: cost.N ?? DEFAULT_SCRYPT_COST.N, r: cost.r ?? DEFAULT_SCRYPT_COST.r, p: cost.p ?? DEFAULT_SCRYPT_COST.p };
  return {
    async hash(password) {
      const salt = randomBytes(SCRYPT_SALT_BYTES);
      const key = await derive(password, salt, SCRYPT_KEY_BYTES, chosen);
      return formatScryptHash({ ...chosen, salt, key });
    },
    async verify(password, stored) {
      const parsed = parseScryptHash(stored);
      if (!parsed) return false;
      const actual = await derive(password, parsed.salt, parsed.key.length, parsed);
      return timingSafeEqual(actual, parsed.key);
    },
  };
}
