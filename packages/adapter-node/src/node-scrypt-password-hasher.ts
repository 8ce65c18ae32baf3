import { scrypt } from "node:crypto";
import { scryptPasswordHasher, type PasswordHasher, type ScryptCost } from "@lineage/core";

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
  return scryptPasswordHasher(derive, cost);
}
