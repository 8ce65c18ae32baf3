import { LineageError } from "@lineage/core";
import type { Context } from "hono";
import { headerOf } from "./request-header.ts";

/** The test Node's http server makes of an Expect header before it sends 100 Continue. */
const CONTINUE = /(?:^|\W)100-continue(?:$|\W)/i;

/**
 * The refusal of an expectation this server cannot meet (417 API0107, RFC 9110 10.1.1), or
 * undefined: 100-continue is the only one there is, and Node has answered it before the app runs.
 */
export function unmetExpectation(c: Context): LineageError | undefined {
  const expectation = headerOf(c, "expect");
  if (expectation === undefined || CONTINUE.test(expectation)) return undefined;
  return new LineageError("API0107", [expectation.slice(0, 200)]);
}
