import { elementEtag, ifMatchSatisfied } from "./etag.ts";
import type { ElementRevision } from "./smart-element.ts";
import { LineageError } from "../errors/lineage-error.ts";
import type { RequestScope } from "../scope/request-scope.ts";

/**
 * The ETag GET answers the scope's principal for an element whose latest revision is `revision`
 * (api-v2.md, Versioning). Reads, write answers and If-Match checks all take it from here, so a
 * client's If-Match is compared with exactly what it was given.
 */
export function etagFor(scope: RequestScope, revision: ElementRevision): Promise<string> {
  return elementEtag(revision.id, revision.modifiedAt, scope.rightsVector(revision), scope.principal, scope.locale);
}

/**
 * Refuses a write (412 CRUD0238) when `ifMatch` names none of the element's current ETag; no
 * header, no check. Called inside the write's transaction with the revision it read there, so of
 * two writes sent with the same ETag the second finds the first's revision and is refused.
 */
export async function checkIfMatch(scope: RequestScope, revision: ElementRevision, ifMatch: string | undefined, ref: string | number): Promise<void> {
  if (ifMatch === undefined) return;
  if (!ifMatchSatisfied(ifMatch, await etagFor(scope, revision))) throw new LineageError("CRUD0238", [ref]);
}
