import fc from "fast-check";

/*
 * Hostile inputs for the property tests: raw strings (any code point, lone surrogates, NUL),
 * and strings built from the tokens the parsers look for, so that runs get past the first check.
 */

/** Pieces parsers split on or look for, plus numbers and encodings that break naive code. */
export const TOKENS = [
  "all", "ALL", "0", "00", "-1", "1", "10", "10000", "10001", "1e309", "1e5", "0x10", "9007199254740993", "99999999999999999999",
  "NaN", "Infinity", "-0", " ", "\t", ",", ":", ".", "..", "/", "%", "%00", "%zz", "%E0%A4%A", "%ff", "\u0000", "\uD800", "\uFFFF", "🦊",
  "asc", "desc", "ASC", "title", "id", "initid", "revision", "ar_title", "ar_links", "ar_secret", "ar_words",
  "document.properties", "document.properties.", "document.properties.all", "document.properties.state", "document.attributes",
  "document.attributes.", "document.attributes.all", "document.attributes.ar_title", "family.structure", "requestParameters.slice",
  "__proto__", "constructor", "prototype", "toString", "json", "xml", "<script>", "'", '"', "\\", "\r\n",
] as const;

/** A string a client could send: raw characters, or tokens glued together. */
export const hostileString = (maxLength = 40) =>
  fc.oneof(
    fc.string({ unit: "binary", maxLength }),
    fc.string({ unit: "grapheme-ascii", maxLength }),
    fc.array(fc.constantFrom(...TOKENS), { maxLength: 8 }).map((parts) => parts.join("")),
    fc.array(fc.constantFrom(...TOKENS), { minLength: 1, maxLength: 6 }).map((parts) => parts.join(",")),
  );

/** A JSON value with hostile strings and extreme numbers in it. */
export const hostileJson = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.constantFrom(null, true, false, 0, -1, 1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, 0.1, 2 ** 53, ""),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.integer(),
    hostileString(20),
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(fc.oneof(hostileString(10), fc.constantFrom("value", "document", "attributes", "comment", "parameters")), tie("value"), { maxKeys: 4 }),
  ),
})).value;

/** Code of a thrown error, or "crash" for anything that is not a LineageError with a 4xx status. */
export function refusalOf(error: unknown): string {
  const e = error as { name?: string; code?: string; status?: number };
  if (e?.name === "LineageError" && typeof e.status === "number" && e.status >= 400 && e.status < 500) return e.code ?? "?";
  return "crash";
}

/** Runs `parse`: it must return or refuse with a 4xx LineageError; anything else fails the property. */
export function parsedOrRefused<T>(parse: () => T): T | undefined {
  try {
    return parse();
  } catch (error) {
    if (refusalOf(error) === "crash") throw error;
    return undefined;
  }
}
