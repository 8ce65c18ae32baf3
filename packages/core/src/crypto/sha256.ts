import { sha256 as nobleSha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";

/**
 * SHA-256 of bytes, or of a string's UTF-8. Synchronous and without Node, so
 * it fits where the core digests on a hot path (token and session lookups,
 * remembered credentials) on any runtime.
 *
 * @example sha256Hex("abc") // "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
 */
export function sha256(data: string | Uint8Array): Uint8Array {
  return nobleSha256(typeof data === "string" ? utf8ToBytes(data) : data);
}

/** SHA-256 in lowercase hex, as stored for token secrets, vault files and import keys. */
export function sha256Hex(data: string | Uint8Array): string {
  return bytesToHex(sha256(data));
}
