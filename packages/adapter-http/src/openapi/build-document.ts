import { errorCodeDefinition, type ErrorCode } from "@lineage/core";
import { toJsonSchema, toJsonSchemaDefs, type ConversionConfig } from "@valibot/to-json-schema";
import * as v from "valibot";
import { ErrorEnvelopeSchema, EnvelopeMessageSchema, successEnvelopeSchema } from "./envelope.schema.ts";
import type { AnySchema, ApiOperation } from "./operation.ts";
import { SHARED_SCHEMAS } from "./shared-schemas.ts";
import { SESSION_COOKIE } from "../authentication/session-cookie.ts";

/** Errors any authenticated /api/ request can get, whatever the route. */
const AUTHENTICATION_ERRORS: readonly ErrorCode[] = ["AUTH0401", "AUTH0402", "AUTH0429", "CRUD0105"];
/** Errors of any /api/ request: an Accept or a suffix the API cannot answer. */
const FORMAT_ERRORS: readonly ErrorCode[] = ["API0005", "API0006"];
/** Errors of any request with a body. */
const BODY_ERRORS: readonly ErrorCode[] = ["API0009", "API0010", "API0012"];

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

/** `/smart-elements/:docid` → `/smart-elements/{docid}`; a `*` becomes `{path}`. */
export function openApiPath(honoPath: string): { path: string; names: string[] } {
  const names: string[] = [];
  const path = honoPath
    .split("/")
    .map((segment) => {
      const match = /^:([A-Za-z0-9_]+)(\{.*\})?\??$/.exec(segment);
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

function parameter(name: string, location: "path" | "query", schema: AnySchema, required: boolean): Json {
  const { description, ...jsonSchema } = jsonSchemaOf(schema);
  return { name, in: location, required, ...(description ? { description } : {}), schema: jsonSchema };
}

function errorExample(code: ErrorCode): Json {
  const { reason, text } = errorCodeDefinition(code);
  return { summary: `${code}: ${reason}`, value: { success: false, messages: [{ type: "error", contentText: text, code }], data: null } };
}

/** One response per status, listing each code with its reason, with an example per code. */
function errorResponses(codes: readonly ErrorCode[]): Record<string, Json> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of new Set(codes)) {
    const { status } = errorCodeDefinition(code);
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const responses: Record<string, Json> = {};
  for (const [status, list] of [...byStatus].sort(([a], [b]) => a - b)) {
    responses[String(status)] = {
      description: list.map((code) => `\`${code}\` ${errorCodeDefinition(code).reason}: ${errorCodeDefinition(code).text}`).join("\n\n"),
      content: {
        "application/json": {
          schema: { $ref: "#/components/schemas/ErrorEnvelope" },
          examples: Object.fromEntries(list.map((code) => [code, errorExample(code)])),
        },
      },
    };
  }
  return responses;
}

function successResponse(operation: ApiOperation): Record<string, Json> {
  const response = operation.response ?? {};
  const status = String(response.status ?? 200);
  const description = response.description ?? "Success";
  if (response.contentType === null) return { [status]: { description } };
  const contentType = response.contentType ?? "application/json";
  const schema = contentType === "application/json" ? successEnvelopeSchema(response.data ?? v.unknown()) : response.data;
  return { [status]: { description, content: { [contentType]: schema ? { schema: jsonSchemaOf(schema) } : {} } } };
}

function operationObject(operation: ApiOperation, pathNames: readonly string[]): Json {
  const authenticated = operation.authenticated ?? true;
  const isApi = operation.path.startsWith("/api/");
  const codes: ErrorCode[] = [
    ...(isApi ? FORMAT_ERRORS : []),
    ...(authenticated ? AUTHENTICATION_ERRORS : []),
    ...(operation.body && isApi ? BODY_ERRORS : []),
    ...(operation.errors ?? []),
  ];
  const parameters = [
    ...pathNames.map((name) => parameter(name, "path", operation.params?.[name] ?? v.string(), true)),
    ...Object.entries(operation.query ? entriesOf(operation.query) : {}).map(([name, schema]) => parameter(name, "query", schema, !isOptional(schema))),
  ];
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
    responses: operation.unavailable
      ? errorResponses([...(authenticated ? AUTHENTICATION_ERRORS : []), "CRUD0103"])
      : { ...successResponse(operation), ...errorResponses(codes) },
    ...(authenticated ? {} : { security: [] }),
  };
}

export interface DocumentInfo {
  readonly title: string;
  readonly version: string;
  readonly description?: string;
}

/**
 * The OpenAPI 3.1 document of a list of operations: paths, parameters and
 * bodies from their valibot schemas, the envelope, error responses from the
 * error-code table.
 */
export function buildOpenApiDocument(operations: readonly ApiOperation[], info: DocumentInfo): Json {
  const paths: Record<string, Record<string, Json>> = {};
  const tags: string[] = [];
  for (const operation of operations) {
    if (operation.hidden) continue;
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
  return {
    openapi: "3.1.0",
    info,
    jsonSchemaDialect: "https://json-schema.org/draft/2020-12/schema",
    tags: tags.map((name) => ({ name })),
    paths,
    components: {
      schemas: toJsonSchemaDefs(DEFINITIONS, CONVERSION),
      securitySchemes: {
        basic: { type: "http", scheme: "basic", description: "Authorization: Basic base64(login:password)" },
        token: { type: "apiKey", in: "header", name: "Authorization", description: "Authorization: Token <ACCESS_TOKEN> (or the ank-authorization query variable)" },
        session: { type: "apiKey", in: "cookie", name: SESSION_COOKIE, description: "The session cookie opened by the HTML login form" },
      },
    },
    security: [{ basic: [] }, { token: [] }, { session: [] }],
  };
}
