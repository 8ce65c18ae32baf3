/** `length` bytes (at most 65 536) from the runtime's cryptographically secure generator (Web Crypto). */
export function randomBytes(length: number): Uint8Array {
  return crypto.getRandomValues(new Uint8Array(length));
}
