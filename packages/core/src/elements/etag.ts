import { md4 } from "hash-wasm";
import type { Principal } from "../accounts/principal.ts";

/** The platform version, part of every ETag so an upgrade invalidates caches. */
export const PLATFORM_VERSION = "0.1.0";

/**
 * The ETag of an element or revision (api-v2.md, Versioning): md4 of its id,
 * last modification, the reader's rights vector on it, the reader and their
 * groups, and the language, base64-encoded and quoted.
 */
export async function elementEtag(id: number, modifiedAt: string, rightsVector: string, principal: Principal, locale: string): Promise<string> {
  const source = [id, modifiedAt, rightsVector, principal.account.id, [...principal.groups].join(","), locale, PLATFORM_VERSION].join(" ");
  // base64 of the hex digest's text, not of the digest's bytes: the format ETags have always had.
  return `"${btoa(await md4(source))}"`;
}

/** True when an If-None-Match header names this ETag (or `*`); `-gzip` suffixes of proxies are ignored. */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch
    .split(",")
    .map((tag) => tag.trim().replace(/^W\//, "").replace(/-gzip"$/, '"'))
    .some((tag) => tag === "*" || tag === etag || `"${tag}"` === etag);
}

/** The entity tags of a header list, split on the commas between them (a quoted tag may hold a comma itself). */
function entityTags(header: string): string[] {
  return (header.match(/(?:W\/)?"[^"]*"|[^,\s][^,]*/g) ?? []).map((tag) => tag.trim());
}

/**
 * True when an If-Match header lets a write go on against an element whose
 * ETag is `etag` (RFC 9110, 13.1.1): `*`, or a list naming it by the strong
 * comparison, so a weak tag (`W/"…"`) never matches. A tag sent without its
 * quotes is taken as that quoted tag, as If-None-Match takes it.
 */
export function ifMatchSatisfied(ifMatch: string, etag: string): boolean {
  return entityTags(ifMatch).some((tag) => tag === "*" || tag === etag || (!tag.startsWith("W/") && !tag.startsWith('"') && `"${tag}"` === etag));
}
