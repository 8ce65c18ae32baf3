/**
 * True when two byte strings are equal, in a time that depends on their
 * length only, not on where they differ. Lengths are not secret here: callers
 * compare digests or derived keys of a known size.
 */
export function timingSafeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a[i]! ^ b[i]!;
  return difference === 0;
}
