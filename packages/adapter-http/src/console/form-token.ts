import { constantTimeEqual, LineageError } from "@lineage/core";
import type { ConsoleText } from "./console-text.ts";

/** Refuses a form that does not carry the session's own form token: a forged post from another site, or no session (403). */
export function checkFormToken(csrf: string | undefined, given: string | undefined, t: ConsoleText): void {
  if (!csrf) throw new LineageError("AUTH0403", ["POST", "console"], { userMessage: t.needSession });
  if (!constantTimeEqual(csrf, given ?? "")) throw new LineageError("AUTH0403", ["POST", "console"], { userMessage: t.badFormToken });
}
