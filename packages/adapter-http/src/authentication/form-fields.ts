import type { Context } from "hono";
import { headerOf } from "../request-header.ts";

const FORM_TYPES = ["application/x-www-form-urlencoded", "multipart/form-data"];

/**
 * The fields of a form body as single strings (a repeated field keeps its last value); none when the
 * body is no form or is malformed: refusing it is the route's, with its own message.
 */
export async function formFields(c: Context): Promise<Record<string, string>> {
  const type = headerOf(c, "content-type")?.toLowerCase() ?? "";
  if (!FORM_TYPES.some((form) => type.startsWith(form))) return {};
  try {
    const body = await c.req.parseBody();
    return Object.fromEntries(Object.entries(body).filter((entry): entry is [string, string] => typeof entry[1] === "string"));
  } catch {
    return {};
  }
}
