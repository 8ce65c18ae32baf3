import { bytesToHex } from "@noble/hashes/utils.js";

/** Bytes in lowercase hex. */
export function toHex(bytes: Uint8Array): string {
  return bytesToHex(bytes);
}

/** Bytes in base64, padded. */
export function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** Bytes in base64url without padding (RFC 4648 §5): safe in cookies and URLs. */
export function toBase64Url(bytes: Uint8Array): string {
  return toBase64(bytes).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** The bytes of a padded or unpadded base64 string; throws on one that is not base64. */
export function fromBase64(text: string): Uint8Array {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
