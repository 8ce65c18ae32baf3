import { LineageError, type UploadedFile } from "@lineage/core";
import type { Context } from "hono";

/** Request variables that steer the API itself and are never field names. */
const CONTROL_VARIABLES = new Set(["ank-authorization", "authtype", "alt", "fields", "_method"]);

/** The deepest JSON a body may nest; deeper is refused before parsing pays for it. */
export const MAX_JSON_DEPTH = 64;

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
  const text = await c.req.text();
  if (!text.trim()) throw new LineageError("API0009", ["the body is empty, a JSON object is expected"]);
  if (jsonDepthExceeds(text, MAX_JSON_DEPTH)) throw new LineageError("API0009", [`JSON nested deeper than ${MAX_JSON_DEPTH} levels`]);
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
    if (typeof item === "object" && item !== null && "value" in item) return (item as { value: unknown }).value;
    throw new LineageError("ROUTES0108", [id]);
  };
  return Object.fromEntries(Object.entries(attributes).map(([id, item]) => [id, unwrap(id, item)]));
}

async function toUpload(file: File): Promise<UploadedFile> {
  return { kind: "upload", name: file.name || "file", mime: file.type || "application/octet-stream", content: new Uint8Array(await file.arrayBuffer()) };
}

/** Field values of a form (urlencoded or multipart): one variable per field, repeated or `name[]` for lists. */
async function decodeForm(c: Context): Promise<Record<string, unknown>> {
  let form: Record<string, unknown>;
  try {
    form = await c.req.parseBody({ all: true });
  } catch (error) {
    throw new LineageError("API0009", [`malformed form (${(error as Error).message})`]);
  }
  const values: Record<string, unknown> = {};
  for (const [rawName, raw] of Object.entries(form)) {
    const name = rawName.endsWith("[]") ? rawName.slice(0, -2) : rawName;
    if (CONTROL_VARIABLES.has(name.toLowerCase())) continue;
    const items = Array.isArray(raw) ? raw : [raw];
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
