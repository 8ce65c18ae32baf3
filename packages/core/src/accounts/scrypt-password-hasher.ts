import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from "node:crypto";
import type { PasswordHasher } from "../ports/password-hasher.port.ts";

function derive(password: string, salt: Buffer, keylen: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password, salt, keylen, options, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

/**
 * scrypt with a per-password salt. The cost is part of the stored hash
 * (`scrypt$N$r$p$salt$key`), so it can be raised without breaking old hashes.
 */
export function createScryptPasswordHasher(cost: { N?: number; r?: number; p?: number } = {}): PasswordHasher {
  const N = cost.N ?? 2 ** 15;
  const r = cost.r ?? 8;
  const p = cost.p ?? 1;
  return {
    async hash(password) {
      const salt = randomBytes(16);
      const key = await derive(password, salt, 32, { N, r, p, maxmem: 256 * N * r });
      return `scrypt$${N}$${r}$${p}$${salt.toString("base64")}$${key.toString("base64")}`;
    },
    async verify(password, stored) {
      const [scheme, n, rr, pp, salt, key] = stored.split("$");
      if (scheme !== "scrypt" || !n || !rr || !pp || !salt || !key) return false;
      const expected = Buffer.from(key, "base64");
      const options = { N: Number(n), r: Number(rr), p: Number(pp), maxmem: 256 * Number(n) * Number(rr) };
      const actual = await derive(password, Buffer.from(salt, "base64"), expected.length, options);
      return timingSafeEqual(actual, expected);
    },
  };
}
