import { fromBase64, toBase64 } from "../crypto/encoding.ts";

/** The cost parameters of scrypt (RFC 7914): N (a power of two), r and p. */
export interface ScryptCost {
  readonly N: number;
  readonly r: number;
  readonly p: number;
}

/** 32 MiB and about a tenth of a second per hash on a server core. */
export const DEFAULT_SCRYPT_COST: ScryptCost = { N: 2 ** 15, r: 8, p: 1 };

/** Bytes of salt drawn for a new hash, and of key derived. */
export const SCRYPT_SALT_BYTES = 16;
export const SCRYPT_KEY_BYTES = 32;

/** One stored password hash: the cost it was made with, its salt and the derived key. */
export interface ScryptHash extends ScryptCost {
  readonly salt: Uint8Array;
  readonly key: Uint8Array;
}

/**
 * The stored form, `scrypt$N$r$p$salt$key` with salt and key in base64. Every
 * PasswordHasher of scrypt writes and reads this one format, so a hash made by
 * one (Node's native scrypt, the core's portable one) verifies with the other.
 */
export function formatScryptHash(hash: ScryptHash): string {
  return `scrypt$${hash.N}$${hash.r}$${hash.p}$${toBase64(hash.salt)}$${toBase64(hash.key)}`;
}

/** The parts of a stored hash; undefined for anything that is not one (verification then fails). */
export function parseScryptHash(stored: string): ScryptHash | undefined {
  const [scheme, n, r, p, salt, key, ...rest] = stored.split("$");
  if (scheme !== "scrypt" || !n || !r || !p || !salt || !key || rest.length > 0) return undefined;
  try {
    const parsed = { N: Number(n), r: Number(r), p: Number(p), salt: fromBase64(salt), key: fromBase64(key) };
    return parsed.key.length > 0 ? parsed : undefined;
  } catch {
    return undefined;
  }
}
