import { Ajv2020, type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";
import formats from "ajv-formats";
import { openApiDocumentOf } from "@lineage/adapter-http/openapi";
import { API_DOCUMENT_INFO } from "@lineage/adapter-http/openapi";
import { appWithEveryRoute } from "./full-app.ts";

/** An answer the server gave, as a test received it. */
export interface ReceivedAnswer {
  readonly method: string;
  /** The path and query that was asked (`/api/v2/smart-elements/?slice=2`), or a whole URL. */
  readonly url: string;
  readonly status: number;
  /** The Content-Type header, if any. */
  readonly contentType: string | null;
  /** The body as text ('' when none). */
  readonly body: string;
}

type Json = Record<string, any>;

/** A documented operation found for an answer: its path template, and its Operation Object. */
interface Located {
  readonly template: string;
  readonly pointer: string;
  readonly operation: Json | undefined;
}

/** What the checker says of an answer: the documented operation it was held to, and what does not match ([] when all does). */
export interface AnswerCheck {
  /** `GET /api/v2/smart-elements/{docid}`, or undefined when the document has no such operation. */
  readonly operation: string | undefined;
  readonly problems: string[];
}

/**
 * Checks answers against an OpenAPI 3.1 document with an independent JSON Schema validator
 * (ajv, draft 2020-12): the operation (path template and method), the status (or `default`),
 * the content type, and a JSON body against the response's schema. Requests on a path or
 * method the document does not describe must get the error envelope.
 */
export function createAnswerChecker(document: Json): (answer: ReceivedAnswer) => AnswerCheck {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  formats.default(ajv);
  ajv.addSchema(document, "openapi");
  const compiled = new Map<string, ValidateFunction>();
  const validatorAt = (pointer: string) => {
    let validate = compiled.get(pointer);
    if (!validate) {
      validate = ajv.compile({ $ref: `openapi#${pointer}` });
      compiled.set(pointer, validate);
    }
    return validate;
  };
  const templates = Object.keys(document.paths as Json).map((template) => ({ template, pattern: templatePattern(template), literals: literalSegments(template) }));

  function locate(method: string, pathname: string): Located | undefined {
    const path = pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname;
    const matches = templates.filter(({ pattern }) => pattern.test(path)).sort((a, b) => b.literals - a.literals);
    const found = matches.find(({ template }) => document.paths[template][method]) ?? matches[0];
    if (!found) return undefined;
    return { template: found.template, pointer: `/paths/${escapePointer(found.template)}/${method}`, operation: document.paths[found.template][method] };
  }

  return (answer) => {
    const method = answer.method.toLowerCase();
    const located = locate(method, new URL(answer.url, "http://server.invalid").pathname);
    const operation = located?.operation ? `${method.toUpperCase()} ${located.template}` : undefined;
    return { operation, problems: problemsOf(answer, method, located) };
  };

  function problemsOf(answer: ReceivedAnswer, method: string, located: Located | undefined): string[] {
    const mediaType = answer.contentType?.split(";")[0]?.trim().toLowerCase() ?? null;
    if (!located?.operation) {
      // A path or method the document does not describe: it may only be refused, with the envelope.
      const problems = answer.status < 400 ? [`${answer.status} on an undocumented operation`] : [];
      if (mediaType !== "application/json") return [...problems, `content type ${answer.contentType ?? "(none)"} of a refusal is not application/json`];
      return [...problems, ...schemaProblems(validatorAt("/components/schemas/ErrorEnvelope"), answer.body)];
    }
    const responses = located.operation.responses as Json;
    const status = String(answer.status);
    const key = status in responses ? status : `${status[0]}XX` in responses ? `${status[0]}XX` : "default" in responses ? "default" : undefined;
    if (!key) return [`status ${status} is not documented (documented: ${Object.keys(responses).join(", ")})`];
    // A response may be a reference to another operation's (a structure's copy of a route refers to the route's refusals).
    const reference = (responses[key] as Json).$ref as string | undefined;
    const responsePointer = reference?.startsWith("#") ? reference.slice(1).split("/").map((segment) => decodeURIComponent(segment)).join("/") : `${located.pointer}/responses/${escapePointer(key)}`;
    const response = reference ? resolvePointer(document, responsePointer) : (responses[key] as Json);
    const content = response.content as Json | undefined;
    if (method === "head") return [];
    if (!content || Object.keys(content).length === 0) return answer.body === "" ? [] : [`response ${key} is documented without a body, but one came (${answer.contentType ?? "no content type"})`];
    if (!mediaType) return answer.body === "" ? [`response ${key} is documented with a body, but none came`] : [`response ${key} came without a content type`];
    const documented = Object.keys(content).find((type) => mediaTypeMatches(type, mediaType));
    if (!documented) return [`content type ${mediaType} is not documented for ${key} (documented: ${Object.keys(content).join(", ")})`];
    if (!isJson(documented) || !content[documented].schema) return [];
    const problems = schemaProblems(validatorAt(`${responsePointer}/content/${escapePointer(documented)}/schema`), answer.body);
    return [...problems, ...codeProblems(content[documented].examples as Json | undefined, answer.body, key)];
  }
}

/** The method a request is answered as: a POST with X-HTTP-Method-Override PUT or DELETE is handled as that method. */
export function answeredMethod(method: string, headers: Readonly<Record<string, string>> = {}): string {
  const override = Object.entries(headers).find(([name]) => name.toLowerCase() === "x-http-method-override")?.[1].trim().toUpperCase();
  return method.toUpperCase() === "POST" && (override === "PUT" || override === "DELETE") ? override : method;
}

/** The document a server with every optional service serves at /api/v2/openapi.json (made once per test file). */
const servedDocument = await openApiDocumentOf(await appWithEveryRoute(), API_DOCUMENT_INFO);
let checker: ((answer: ReceivedAnswer) => AnswerCheck) | undefined;

/** An answer held to the document the server serves at /api/v2/openapi.json. */
export function checkAnswer(answer: ReceivedAnswer): AnswerCheck {
  checker ??= createAnswerChecker(servedDocument);
  return checker(answer);
}

/** What does not match in an answer ([] when it validates). */
export const answerProblems = (answer: ReceivedAnswer): string[] => checkAnswer(answer).problems;

/** Throws, naming the operation, the status and the validator's errors, when an answer does not match the served document. */
export function expectDocumentedAnswer(answer: ReceivedAnswer): void {
  const { operation, problems } = checkAnswer(answer);
  if (problems.length === 0) return;
  const { pathname, search } = new URL(answer.url, "http://server.invalid");
  const body = answer.body.length > 600 ? `${answer.body.slice(0, 600)}...` : answer.body;
  throw new Error(`The answer to ${answer.method.toUpperCase()} ${pathname}${search} (${answer.status}, ${answer.contentType ?? "no content type"}) ` +
    `does not match /api/v2/openapi.json, operation ${operation ?? "(none documented)"}:\n- ${problems.join("\n- ")}\nbody: ${body}`);
}

/** Checks a fetch Response (its body is read from a clone). */
export async function expectDocumentedResponse(method: string, url: string, response: Response): Promise<void> {
  const body = await response.clone().text();
  expectDocumentedAnswer({ method, url, status: response.status, contentType: response.headers.get("content-type"), body });
}

/** `fetch`, then checks its answer against the document (the body is read from a clone: the caller reads it as usual). */
export async function documentedFetch(url: string, init: RequestInit = {}): Promise<Response> {
  const response = await fetch(url, init);
  const headers = Object.fromEntries(new Headers(init.headers).entries());
  await expectDocumentedResponse(answeredMethod(init.method ?? "GET", headers), url, response);
  return response;
}

/** Checks the first answer read off a socket (`HTTP/1.1 400 ...`, headers, body) to a request written by hand. */
export function expectDocumentedRawAnswer(request: string | Buffer, answer: string | Buffer): void {
  const [method = "GET", path = "/"] = /^([A-Z]+) (\S+) HTTP\//.exec(request.toString("latin1"))?.slice(1) ?? [];
  const bytes = Buffer.from(answer);
  const split = bytes.indexOf("\r\n\r\n");
  const head = bytes.subarray(0, split < 0 ? bytes.length : split).toString("latin1");
  // Only the first answer: a test may have sent a second request on the connection.
  const length = /^content-length: *(\d+)/im.exec(head)?.[1];
  const body = split < 0 ? Buffer.alloc(0) : bytes.subarray(split + 4, length === undefined ? undefined : split + 4 + Number(length));
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]);
  const contentType = /^content-type: *(.*)$/im.exec(head)?.[1]?.trim() ?? null;
  const text = (/^transfer-encoding: *chunked/im.test(head) ? unchunked(body) : body).toString("utf8");
  expectDocumentedAnswer({ method, url: path, status, contentType, body: text });
}

function unchunked(body: Buffer): Buffer {
  const parts: Buffer[] = [];
  for (let at = 0; ;) {
    const end = body.indexOf("\r\n", at);
    const size = end < 0 ? 0 : Number.parseInt(body.subarray(at, end).toString("latin1"), 16);
    if (!(size > 0)) return Buffer.concat(parts);
    parts.push(body.subarray(end + 2, end + 2 + size));
    at = end + 2 + size + 2;
  }
}

/** An error envelope's code must be one the response lists (its examples are keyed by code). */
function codeProblems(examples: Json | undefined, body: string, status: string): string[] {
  if (!examples) return [];
  let code: unknown;
  try {
    code = (JSON.parse(body) as { messages?: Array<{ code?: unknown }> }).messages?.[0]?.code;
  } catch {
    return [];
  }
  if (typeof code !== "string" || code in examples) return [];
  return [`code ${code} is not documented for ${status} (documented: ${Object.keys(examples).join(", ")})`];
}

function schemaProblems(validate: ValidateFunction, body: string): string[] {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return [`the body is not JSON: ${body.slice(0, 80)}`];
  }
  return validate(json) ? [] : (validate.errors ?? []).map(describeError);
}

function describeError(error: ErrorObject): string {
  const params = Object.keys(error.params).length > 0 ? ` ${JSON.stringify(error.params)}` : "";
  return `${error.instancePath || "(body)"} ${error.message ?? error.keyword}${params} (schema ${error.schemaPath})`;
}

/** `{name}` matches one segment; `{path}` (a `*` route) matches the rest of the path. */
function templatePattern(template: string): RegExp {
  const source = template
    .split("/")
    .map((segment) => (segment === "{path}" ? ".+" : segment.split(/\{[^}]+\}/).map((literal) => literal.replace(/[.*+?^$()|[\]\\]/g, "\\$&")).join("[^/]+")))
    .join("/");
  return new RegExp(`^${source}$`);
}

/** The value at a JSON pointer (`/paths/~1api~1v2~1x/get/responses/404`) of the document. */
function resolvePointer(document: Json, pointer: string): Json {
  return pointer.split("/").slice(1).reduce<Json>((at, segment) => at[decodeURIComponent(segment).replace(/~1/g, "/").replace(/~0/g, "~")] as Json, document);
}

const literalSegments = (template: string) => template.split("/").filter((segment) => segment && !segment.includes("{")).length;
const escapePointer = (segment: string) => segment.replace(/~/g, "~0").replace(/\//g, "~1");
const isJson = (type: string) => type === "application/json" || type.endsWith("+json");

function mediaTypeMatches(documented: string, received: string): boolean {
  if (documented === "*/*" || documented === received) return true;
  return documented.endsWith("/*") && received.startsWith(documented.slice(0, -1));
}
