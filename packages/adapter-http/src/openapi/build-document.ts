import { errorCodeDefinition, type ErrorCode } from "@lineage/core";
import { toJsonSchema, toJsonSchemaDefs, type ConversionConfig } from "@valibot/to-json-schema";
import * as v from "valibot";
import { ErrorEnvelopeSchema, EnvelopeMessageSchema, errorEnvelopeSchema, successEnvelopeSchema } from "./envelope.schema.ts";
import type { AnySchema, ApiOperation, OperationResponse } from "./operation.ts";
import { SHARED_SCHEMAS } from "./shared-schemas.ts";
import { SESSION_COOKIE } from "../authentication/session-cookie.ts";

/**
 * Errors of any request, whatever the route: an unexpected failure, what Node's parser refuses (request
 * line, Host, headers too large, too slow), an Expect other than 100-continue, the database unavailable.
 */
const ANY_REQUEST_ERRORS: readonly ErrorCode[] = ["API0001", "API0104", "API0105", "API0106", "API0107", "API0110"];
/** Errors any authenticated request can get, whatever the route. */
const AUTHENTICATION_ERRORS: readonly ErrorCode[] = ["AUTH0401", "AUTH0402", "AUTH0403", "AUTH0429", "CRUD0105"];
/** Errors of any /api/ request: an Accept or a suffix the API cannot answer, the request timeout. */
const API_ERRORS: readonly ErrorCode[] = ["API0005", "API0006", "API0101"];
/** Errors of any /api/ request but a GET: a body over the limit, sent or declared (body-limit.ts). */
const WRITE_ERRORS: readonly ErrorCode[] = ["API0010"];
/** Errors of any /api/ POST: an X-HTTP-Method-Override other than PUT or DELETE. */
const POST_ERRORS: readonly ErrorCode[] = ["API0008"];
/** Errors of any /api/ request with a body (the login pages read what they can of theirs); multipart adds the upload limit (API0102). */
const BODY_ERRORS: readonly ErrorCode[] = ["API0009", "API0012"];

/** `alt=html` wraps any JSON answer of /api/ in a page (api-v2.md, General conventions). */
const ALT_HTML = {
  schema: { type: "string", description: "With alt=html: the JSON answer, HTML-escaped, inside a textarea of an HTML page" },
};
const ALT_PARAMETER = {
  name: "alt", in: "query", required: false,
  description: "html: the JSON answer inside a textarea of an HTML page (text/html), for clients without XMLHttpRequest v2",
  schema: { type: "string", enum: ["html"] },
};
/** The plain-text errors of the image routes whose URL ends in an extension (api-v2.md, Images, rule 7). */
const PLAIN_TEXT_ERROR = {
  schema: { type: "string", pattern: "^error \\([A-Z]+[0-9]+\\): ", description: "With an extension other than .json in the URL: `error (<code>): <text>`" },
};

type Json = Record<string, unknown>;

const DEFINITIONS: Record<string, AnySchema> = { EnvelopeMessage: EnvelopeMessageSchema, ErrorEnvelope: ErrorEnvelopeSchema, ...SHARED_SCHEMAS };

const CONVERSION: ConversionConfig = {
  target: "draft-2020-12",
  // Query strings are parsed from text: the document shows what the client sends.
  typeMode: "input",
  // Checks and transformations that JSON Schema cannot express stay in the code; their description says them.
  ignoreActions: ["check", "transform", "trim", "to_lower_case", "to_upper_case"],
  definitions: DEFINITIONS,
  overrideRef: ({ referenceId }) => `#/components/schemas/${referenceId}`,
  // JSON Schema patterns have no flags: a flagged regex is told in words rather than dropped or made wrong.
  overrideAction: ({ valibotAction, jsonSchema }) => {
    if (valibotAction.type !== "regex") return undefined;
    const { source, flags } = (valibotAction as unknown as { requirement: RegExp }).requirement;
    if (!flags) return undefined;
    const { pattern: _pattern, ...rest } = jsonSchema as Json;
    const rule = `Matches /${source}/${flags}.`;
    return { ...rest, description: rest.description ? `${String(rest.description)} ${rule}` : rule };
  },
};

/** A valibot schema as a JSON Schema of the document (shared parts as component refs). */
export function jsonSchemaOf(schema: AnySchema): Json {
  const { $schema: _schema, $defs: _defs, ...rest } = toJsonSchema(schema, CONVERSION) as Json;
  return rest;
}

/** `/smart-elements/:docid` → `/smart-elements/{docid}` (already templated segments stay); a `*` becomes `{path}`. */
export function openApiPath(honoPath: string): { path: string; names: string[] } {
  const names: string[] = [];
  const path = honoPath
    .split("/")
    .map((segment) => {
      const match = /^:([A-Za-z0-9_]+)(\{.*\})?\??$/.exec(segment) ?? /^\{([A-Za-z0-9_]+)\}$/.exec(segment);
      if (match?.[1]) {
        names.push(match[1]);
        return `{${match[1]}}`;
      }
      if (segment === "*") {
        names.push("path");
        return "{path}";
      }
      return segment;
    })
    .join("/");
  return { path, names };
}

function entriesOf(schema: AnySchema): Record<string, AnySchema> {
  const object = "pipe" in schema ? (schema.pipe as AnySchema[])[0] : schema;
  if (!object || !("entries" in object)) throw new Error("An operation's query must be a valibot object schema");
  return object.entries as Record<string, AnySchema>;
}

const isOptional = (schema: AnySchema) => ["optional", "nullish", "exact_optional"].includes(schema.type);

/** Query variables holding JSON: the document gives the schema of the JSON they hold, as OpenAPI's `content` does. */
const JSON_QUERY_VARIABLES: Readonly<Record<string, string>> = { filter: "Filter" };

function parameter(name: string, location: "path" | "query", schema: AnySchema, required: boolean): Json {
  const { description, ...jsonSchema } = jsonSchemaOf(schema);
  const json = location === "query" ? JSON_QUERY_VARIABLES[name] : undefined;
  const shape = json ? { content: { "application/json": { schema: { $ref: `#/components/schemas/${json}` } } } } : { schema: jsonSchema };
  return { name, in: location, required, ...(description ? { description } : {}), ...shape };
}

function errorExample(code: ErrorCode, data: Json | null = null): Json {
  const { reason, text } = errorCodeDefinition(code);
  return { summary: `${code}: ${reason}`, value: { success: false, messages: [{ type: "error", contentText: text, code }], data } };
}

/** The first example a schema gives (`v.examples`), or null. */
function exampleOf(schema: AnySchema): Json | null {
  const [example] = (jsonSchemaOf(schema).examples as Json[] | undefined) ?? [];
  return example ?? null;
}

/** Where an operation is served, for the media types its answers come in. */
interface Served {
  /** Under /api/: alt=html may wrap its JSON answers. */
  readonly isApi: boolean;
  readonly plainTextErrors: boolean;
}

/** The media types of a JSON answer: JSON, and the page alt=html gives under /api/. */
function jsonContent(schema: Json, served: Served, examples?: Json): Json {
  return { "application/json": { schema, ...(examples ? { examples } : {}) }, ...(served.isApi ? { "text/html": ALT_HTML } : {}) };
}

/**
 * One response per status, listing each code with its reason, with an example per code; a status
 * with codes whose refusals carry `data` (`errorData`) takes their schemas besides null.
 */
function errorResponses(codes: readonly ErrorCode[], served: Served, errorData: ApiOperation["errorData"] = {}): Record<string, Json> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of new Set(codes)) {
    const { status } = errorCodeDefinition(code);
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const responses: Record<string, Json> = {};
  for (const [status, list] of [...byStatus].sort(([a], [b]) => a - b)) {
    const data = list.flatMap((code) => (errorData[code] ? [errorData[code]] : []));
    const schema = data.length > 0 ? jsonSchemaOf(errorEnvelopeSchema(v.union([v.null(), ...data]))) : { $ref: "#/components/schemas/ErrorEnvelope" };
    const example = (code: ErrorCode) => errorExample(code, errorData[code] ? exampleOf(errorData[code]) : null);
    responses[String(status)] = {
      description: list.map((code) => `\`${code}\` ${errorCodeDefinition(code).reason}: ${errorCodeDefinition(code).text}`).join("\n\n"),
      content: {
        ...jsonContent(schema, served, Object.fromEntries(list.map((code) => [code, example(code)]))),
        ...(served.plainTextErrors ? { "text/plain": PLAIN_TEXT_ERROR } : {}),
      },
    };
  }
  return responses;
}

function responseObject(response: OperationResponse, served: Served): Json {
  const description = response.description ?? "Success";
  if (response.contentType === null) return { description };
  const contentType = response.contentType ?? "application/json";
  const isEnvelope = contentType === "application/json" && response.envelope !== false;
  const schema = isEnvelope ? successEnvelopeSchema(response.data ?? v.unknown()) : response.data;
  const main = contentType === "application/json" ? jsonContent(schema ? jsonSchemaOf(schema) : {}, served) : { [contentType]: schema ? { schema: jsonSchemaOf(schema) } : {} };
  const alternatives = Object.entries(response.alternatives ?? {}).map(([type, alternative]) => [type, alternative ? { schema: jsonSchemaOf(alternative) } : {}]);
  return { description, content: { ...main, ...Object.fromEntries(alternatives) } };
}

/** Two descriptions of one status (a page and an envelope): either content may come. */
function mergeResponses(into: Record<string, Json>, added: Record<string, Json>): Record<string, Json> {
  const merged = { ...into };
  for (const [status, response] of Object.entries(added)) {
    const existing = merged[status];
    merged[status] = existing
      ? { description: `${String(existing.description)}\n\n${String(response.description)}`, content: { ...(existing.content as Json | undefined), ...(response.content as Json | undefined) } }
      : response;
  }
  return merged;
}

const NOT_MODIFIED = { "304": { description: "Not Modified: If-None-Match names the current ETag. No body." } };

function operationObject(operation: ApiOperation, pathNames: readonly string[]): Json {
  const authenticated = operation.authenticated ?? true;
  const isApi = operation.path.startsWith("/api/");
  const served: Served = { isApi, plainTextErrors: operation.plainTextErrors === true };
  const uploads = Object.keys(operation.body?.content ?? {}).includes("multipart/form-data");
  const general: ErrorCode[] = [
    ...ANY_REQUEST_ERRORS,
    ...(isApi ? API_ERRORS : []),
    ...(isApi && operation.method !== "GET" ? WRITE_ERRORS : []),
    ...(isApi && operation.method === "POST" ? POST_ERRORS : []),
    ...(authenticated ? AUTHENTICATION_ERRORS : []),
  ];
  const codes: ErrorCode[] = [
    ...general,
    ...(operation.body && isApi ? BODY_ERRORS : []),
    ...(uploads ? (["API0102"] as const) : []),
    ...(operation.errors ?? []),
  ];
  const parameters = [
    ...pathNames.map((name) => parameter(name, "path", operation.params?.[name] ?? v.string(), true)),
    ...Object.entries(operation.query ? entriesOf(operation.query) : {}).map(([name, schema]) => parameter(name, "query", schema, !isOptional(schema))),
    ...(isApi ? [{ $ref: "#/components/parameters/alt" }] : []),
  ];
  const success = { [String(operation.response?.status ?? 200)]: responseObject(operation.response ?? {}, served) };
  const others = Object.fromEntries((operation.otherResponses ?? []).map((response) => [String(response.status), responseObject(response, served)]));
  const body = operation.body;
  return {
    tags: [operation.tag],
    summary: operation.summary,
    ...(operation.description ? { description: operation.description } : {}),
    operationId: `${operation.method.toLowerCase()}${operation.path.replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ?? "").toUpperCase())}`,
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(body
      ? {
          requestBody: {
            required: body.required ?? true,
            ...(body.description ? { description: body.description } : {}),
            content: Object.fromEntries(Object.entries(body.content).map(([type, schema]) => [type, { schema: jsonSchemaOf(schema) }])),
          },
        }
      : {}),
    responses: sortedByStatus(operation.unavailable
      ? errorResponses([...general, "CRUD0103"], served)
      : mergeResponses({ ...success, ...(operation.etag ? NOT_MODIFIED : {}), ...others }, errorResponses(codes, served, operation.errorData))),
    ...(authenticated ? {} : { security: [] }),
  };
}

function sortedByStatus(responses: Record<string, Json>): Record<string, Json> {
  return Object.fromEntries(Object.entries(responses).sort(([a], [b]) => a.localeCompare(b)));
}

export interface DocumentInfo {
  readonly title: string;
  readonly version: string;
  readonly description?: string;
}

/**
 * The OpenAPI 3.1 document of a list of operations (app-document.ts gathers them from an app's
 * routes): paths, parameters and bodies from their valibot schemas, the envelope, error responses
 * from the error-code table.
 */
export function buildOpenApiDocument(operations: readonly ApiOperation[], info: DocumentInfo): Json {
  const paths: Record<string, Record<string, Json>> = {};
  const tags: string[] = [];
  for (const operation of operations) {
    const { path, names } = openApiPath(operation.path);
    const item = (paths[path] ??= {});
    const method = operation.method.toLowerCase();
    if (item[method]) throw new Error(`Two descriptions of ${operation.method} ${operation.path}`);
    try {
      item[method] = operationObject(operation, names);
    } catch (error) {
      throw new Error(`Cannot describe ${operation.method} ${operation.path}: ${(error as Error).message}`, { cause: error });
    }
    if (!tags.includes(operation.tag)) tags.push(operation.tag);
  }
  // The reference page lists the API's sections first, then the pages and /health, each where it first comes.
  const underApi = new Set(operations.filter((operation) => operation.path.startsWith("/api/")).map((operation) => operation.tag));
  return {
    openapi: "3.1.0",
    info,
    jsonSchemaDialect: "https://json-schema.org/draft/2020-12/schema",
    tags: [...tags.filter((tag) => underApi.has(tag)), ...tags.filter((tag) => !underApi.has(tag))].map((name) => ({ name })),
    paths,
    components: {
      schemas: toJsonSchemaDefs(DEFINITIONS, CONVERSION),
      parameters: { alt: ALT_PARAMETER },
      securitySchemes: {
        basic: { type: "http", scheme: "basic", description: "Authorization: Basic base64(login:password)" },
        token: { type: "apiKey", in: "header", name: "Authorization", description: "Authorization: Token <ACCESS_TOKEN> (or the ank-authorization query variable)" },
        session: { type: "apiKey", in: "cookie", name: SESSION_COOKIE, description: "The session cookie opened by the HTML login form" },
      },
    },
    security: [{ basic: [] }, { token: [] }, { session: [] }],
  };
}
