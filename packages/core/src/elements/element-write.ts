import type { Principal } from "../accounts/principal.ts";
import type { Stamped } from "../scope/definitions.ts";
import type { PlatformContext } from "../scope/platform-context.ts";
import { parseFieldsSelection } from "./fields-selection.ts";
import { etagFor } from "./if-match.ts";
import type { ElementRevision } from "./smart-element.ts";
import { writeResult, type WriteResult } from "./write-elements.ts";

/** What a write of an element answers (POST, PUT, DELETE, restore): the revision written, the ETag its author now reads, and the answer's data. */
export interface ElementWrite {
  readonly revision: ElementRevision;
  readonly etag: string;
  readonly data: WriteResult;
}

/** How a write's answer is made. */
export interface AnswerOptions extends Stamped {
  /** The answer's `fields` (api-v2.md); checked before anything is written. */
  readonly fields?: string | undefined;
  /** When the request started (`performance.now()`), for the answer's `duration`; the write's own start by default. */
  readonly startedAt?: number | undefined;
}

/**
 * Runs a write and makes its answer. The answer's `fields` are checked first: a write must not be
 * stored and then refused (400 ROUTES0103, CRUD0202) for the shape of its answer. The answer is
 * rendered by a scope of its own, with the definitions of the request's stamp, so that nothing the
 * write's scope loaded before the write shows in it.
 */
export async function answerWrite(
  context: PlatformContext, principal: Principal, options: AnswerOptions, write: () => Promise<ElementRevision>,
): Promise<ElementWrite> {
  const startedAt = options.startedAt ?? performance.now();
  parseFieldsSelection(options.fields, "one");
  const revision = await write();
  const scope = await context.scope(principal, options.stamp);
  const [etag, data] = await Promise.all([etagFor(scope, revision), writeResult(scope, revision, startedAt, options.fields)]);
  return { revision, etag, data };
}
