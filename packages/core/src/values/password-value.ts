import type { FieldValue } from "../elements/smart-element.ts";
import type { PasswordHasher } from "../ports/password-hasher.port.ts";

/*
 * A password field keeps a hash only. The write path hashes what the client sent before the value
 * codec sees it, so that the codec (synchronous) can tell a hashed value from a text that would
 * otherwise be stored as given. No answer, revision, history or search index ever shows the value.
 */

/** A password hashed by the write path, as the value codec takes it. */
export interface PasswordHash {
  readonly kind: "password-hash";
  readonly hash: string;
}

/** True for a value hashed by `hashPasswordValue`. */
export function isPasswordHash(raw: unknown): raw is PasswordHash {
  return typeof raw === "object" && raw !== null && (raw as PasswordHash).kind === "password-hash" && typeof (raw as PasswordHash).hash === "string";
}

/**
 * A raw password value made ready for the codec: a non-empty text hashed, or kept as the current
 * hash when it is the same password (writing the same password again changes nothing); empty
 * values and values of the wrong shape go on as they are, for the codec to clear or refuse. A list
 * (the rows of an array column, the items of a multiple field, or both) is hashed item by item,
 * each against the current item at the same place.
 */
export async function hashPasswordValue(raw: unknown, current: FieldValue | undefined, hashing: PasswordHasher): Promise<unknown> {
  if (Array.isArray(raw)) {
    const items: unknown[] = [];
    // One after the other: hashing is costly by design, and a list of them should not take every core at once.
    for (const [index, item] of raw.entries()) items.push(await hashPasswordValue(item, Array.isArray(current) ? current[index] : undefined, hashing));
    return items;
  }
  if (typeof raw !== "string" || raw === "") return raw;
  const same = typeof current === "string" && current !== "" && (await hashing.verify(raw, current).catch(() => false));
  return { kind: "password-hash", hash: same ? current : await hashing.hash(raw) } satisfies PasswordHash;
}
