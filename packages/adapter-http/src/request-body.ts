import { LineageError, mimeByContent, type UploadedFile } from "@lineage/core";
import type { Context } from "hono";
import * as v from "valibot";
import { AttributeInputSchema } from "./put-body.schema.ts";
import { DEFAULT_HTTP_LIMITS, type HttpLimits } from "./http-limits.ts";
import { throwIfExpired } from "./request-timeout.ts";
import { requestText } from "./request-text.ts";

/** Request variables that steer the API itself and are never field names. */
const CONTROL_VARIABLES = new Set(["ank-authorization", "authtype", "alt", "fields", "_method"]);

/** The limits of this request (createHttpApp sets them), or the defaults. */
const limitsOf = (c: Context): HttpLimits => (c.get("limits") as HttpLimits | undefined) ?? DEFAULT_HTTP_LIMITS;

function jsonDepthExceeds(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++;
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) {
      if (++depth > limit) return true;
    } else if (c === 125 || c === 93) depth--;
  }
  return false;
}

/** Parses a JSON body, refusing malformed or too deep documents with a 400. */
export async function readJsonBody(c: Context): Promise<unknown> {
  const text = await requestText(c);
  throwIfExpired(c);
  const { maxJsonDepth } = limitsOf(c);
  if (!text.trim()) throw new LineageError("API0009", ["the body is empty, a JSON object is expected"]);
  if (jsonDepthExceeds(text, maxJsonDepth)) throw new LineageError("API0009", [`JSON nested deeper than ${maxJsonDepth} levels`]);
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new LineageError("API0009", [`malformed JSON (${(error as Error).message})`]);
  }
}

/**
 * Field values of a PUT body in JSON (`{"document":{"attributes":{"id":{"value":…}}}}`):
 * `{value}`, a list of `{value}` (multiple or column) or a list of lists (multiple column).
 */
export function decodeJsonAttributes(body: unknown): Record<string, unknown> {
  const attributes = (body as { document?: { attributes?: unknown } } | null)?.document?.attributes;
  if (typeof attributes !== "object" || attributes === null || Array.isArray(attributes)) {
    throw new LineageError("ROUTES0106", [JSON.stringify(body)?.slice(0, 200) ?? ""]);
  }
  const unwrap = (id: string, item: unknown): unknown => {
    if (Array.isArray(item)) return item.map((inner) => unwrap(id, inner));
    return (item as { value: unknown }).value;
  };
  return Object.fromEntries(
    Object.entries(attributes).map(([id, item]) => {
      if (!v.is(AttributeInputSchema, item)) throw new LineageError("ROUTES0108", [id]);
      return [id, unwrap(id, item)];
    }),
  );
}

async function toUpload(file: File): Promise<UploadedFile> {
  const content = new Uint8Array(await file.arrayBuffer());
  // The client's type is a claim: an image type is recorded only when the bytes are one.
  return { kind: "upload", name: file.name || "file", mime: mimeByContent(content, file.type), content };
}

/** Field values of a form (urlencoded or multipart): one variable per field, repeated or `name[]` for lists. */
async function decodeForm(c: Context): Promise<Record<string, unknown>> {
  let form: Record<string, unknown>;
  try {
    form = await c.req.parseBody({ all: true });
  } catch (error) {
    throw new LineageError("API0009", [`malformed form (${(error as Error).message})`]);
  }
  throwIfExpired(c);
  const { maxUploadBytes } = limitsOf(c);
  const values: Record<string, unknown> = {};
  for (const [rawName, raw] of Object.entries(form)) {
    const name = rawName.endsWith("[]") ? rawName.slice(0, -2) : rawName;
    if (CONTROL_VARIABLES.has(name.toLowerCase())) continue;
    const items = Array.isArray(raw) ? raw : [raw];
    const tooLarge = items.find((item): item is File => item instanceof File && item.size > maxUploadBytes);
    if (tooLarge) throw new LineageError("API0102", [tooLarge.name, maxUploadBytes]);
    const decoded = await Promise.all(items.map((item) => (item instanceof File ? toUpload(item) : item)));
    values[name] = decoded.length === 1 && !rawName.endsWith("[]") ? decoded[0] : decoded;
  }
  return values;
}

/** The field values of a PUT, whatever its content type; `caseInsensitive` for forms. */
export async function readPutValues(c: Context): Promise<{ values: Record<string, unknown>; caseInsensitive: boolean }> {
  const type = (c.req.header("content-type") ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
  if (type === "application/x-www-form-urlencoded" || type === "multipart/form-data") {
    return { values: await decodeForm(c), caseInsensitive: true };
  }
  if (type === "" || type === "application/json" || type.endsWith("+json")) {
    return { values: decodeJsonAttributes(await readJsonBody(c)), caseInsensitive: false };
  }
  throw new LineageError("API0012", [type]);
}
