import fc from "fast-check";
import { expect } from "vitest";
import { hostileJson, hostileString } from "@lineage/adapter-http/testing";
import { answeredMethod, expectDocumentedAnswer } from "../src/openapi-answers.ts";

/*
 * Whole hostile requests (method, path, query, headers, body in JSON, urlencoded or multipart)
 * and the check every answer must pass: no 5xx but those the spec prescribes, the envelope.
 */

export interface HostileRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body?: string | FormData;
}

/** A path segment: a known name, a hostile string percent-encoded, or raw (percent signs, dots, NUL). */
const segment = fc.oneof(
  fc.constantFrom("ART_HELLO", "ART_ZEBRA", "AUTHOR_ADA", "ARTICLE", "AUTHOR", "CATEGORIES", "ar_category", "draft", "review", "submit", "publish", "1", "2", "0", "-1", "99999999999999999999"),
  hostileString(20).map((text) => encodeURIComponent(text.replace(/\p{Surrogate}/gu, "\uFFFD"))),
  fc.array(fc.constantFrom("%", "%zz", "%E0%A4%A", "%00", "%2F", "..", ".json", ".xml", ".JSON", "a", "%C0%AF", "%FF%FE"), { minLength: 1, maxLength: 4 }).map((parts) => parts.join("")),
);

const paths = fc.oneof(
  fc.tuple(segment).map(([id]) => `/api/v2/smart-elements/${id}`),
  fc.constant("/api/v2/smart-elements/"),
  fc.tuple(segment, segment).map(([family, id]) => `/api/v2/smart-structures/${family}/smart-elements/${id}`),
  fc.tuple(segment).map(([family]) => `/api/v2/smart-structures/${family}/smart-elements/`),
  fc.tuple(segment, segment).map(([id, n]) => `/api/v2/smart-elements/${id}/revisions/${n}`),
  fc.tuple(segment).map(([id]) => `/api/v2/smart-elements/${id}/revisions/`),
  fc.tuple(segment).map(([id]) => `/api/v2/smart-elements/${id}/history/`),
  fc.tuple(segment, fc.constantFrom("states", "transitions"), segment).map(([id, kind, name]) => `/api/v2/smart-elements/${id}/workflows/${kind}/${name}`),
  fc.tuple(segment, fc.constantFrom("states", "transitions")).map(([id, kind]) => `/api/v2/smart-elements/${id}/workflows/${kind}/`),
  fc.tuple(segment).map(([name]) => `/api/v2/enumerates/${name}/`),
  fc.tuple(segment, segment).map(([family, field]) => `/api/v2/smart-structures/${family}/enumerates/${field}`),
  fc.tuple(segment).map(([id]) => `/api/v2/trash/${id}`),
  fc.constant("/api/v2/trash/"),
  fc.tuple(segment, segment).map(([size, name]) => `/api/v2/images/assets/sizes/${size}/${name}`),
  fc.tuple(segment).map(([domain]) => `/api/v2/fullsearch/domains/${domain}/smart-elements/`),
  fc.constant("/api/v2/fullsearch/domains/articles/smart-elements/"),
  fc.constant("/api/admin/fullsearch/domains/"),
  fc.tuple(segment).map(([token]) => `/api/v2/authent/tokens/${token}`),
  fc.constantFrom("/api/v2/dashboard/list", "/api/v2/dashboard/info", "/login", "/logout", "/"),
  fc.tuple(segment, segment).map(([a, b]) => `/api/v2/${a}/${b}`),
  fc.tuple(segment).map(([a]) => `/${a}`),
);

const QUERY_NAMES = ["slice", "offset", "orderBy", "orderby", "fields", "keyword", "operator", "allStates", "alt", "revision", "q", "size"] as const;

/** A query string whose values may be well encoded or raw (bad percent-encoding, NUL, commas). */
const queries = fc.array(
  fc.tuple(fc.constantFrom(...QUERY_NAMES), hostileString(40), fc.boolean()).map(([name, value, raw]) =>
    `${name}=${raw ? value.replace(/[&#\s]/g, "").replace(/\p{Surrogate}/gu, "") : encodeURIComponent(value.replace(/\p{Surrogate}/gu, "\uFFFD"))}`),
  { maxLength: 4 },
).map((pairs) => (pairs.length ? `?${pairs.join("&")}` : ""));

const FIELD_IDS = ["ar_title", "ar_words", "ar_score", "ar_date", "ar_category", "ar_tags", "ar_author", "ar_links", "ar_link_url", "ar_secret", "AR_TITLE", "__proto__", "x"];

const jsonBodies = fc.oneof(
  hostileJson.map((value) => JSON.stringify(value)),
  fc.dictionary(fc.constantFrom(...FIELD_IDS), fc.oneof(hostileJson.map((value) => ({ value })), hostileJson)).map((attributes) => JSON.stringify({ document: { attributes } })),
  fc.record({ comment: hostileJson, parameters: fc.dictionary(fc.constantFrom("pub_date", "pub_channels", "x"), hostileJson) }, { requiredKeys: [] }).map((body) => JSON.stringify(body)),
  fc.nat({ max: 5000 }).map((depth) => `${"[".repeat(depth)}${"]".repeat(depth)}`),
  fc.constantFrom('{"document":{"attributes":{"ar_words":{"value":1e400}}}}', '{"document":{"attributes":{"ar_words":{"value":123456789012345678901234567890}}}}', "{", "\u0000", '{"a":"\\ud800"}'),
  hostileString(60),
);

const formBodies = fc.array(fc.tuple(fc.oneof(fc.constantFrom(...FIELD_IDS, "ar_tags[]", "fields", "alt"), hostileString(10)), hostileString(30), fc.boolean()), { maxLength: 5 })
  .map((pairs) => pairs.map(([name, value, raw]) => (raw ? `${name}=${value}` : `${encodeURIComponent(name.replace(/\p{Surrogate}/gu, ""))}=${encodeURIComponent(value.replace(/\p{Surrogate}/gu, ""))}`)).join("&"));

const multipartBodies = fc.array(fc.tuple(fc.constantFrom(...FIELD_IDS), hostileString(30), fc.boolean()), { maxLength: 4 }).map((parts) => {
  const form = new FormData();
  for (const [name, value, asFile] of parts) {
    if (asFile) form.append(name, new Blob([value]), value.slice(0, 10) || "f.txt");
    else form.append(name, value);
  }
  return form;
});

const CREDENTIALS = ["admin:admin-pw", "alice:alice-pw", "bob:bob-pw", "carol:carol-pw", "admin:wrong", "\u00ff:\u0000"];

/** One hostile request. */
export const hostileRequests: fc.Arbitrary<HostileRequest> = fc
  .record({
    method: fc.constantFrom("GET", "GET", "PUT", "PUT", "POST", "DELETE", "PATCH", "OPTIONS"),
    override: fc.option(fc.constantFrom("PUT", "DELETE", "GET", "PATCH", "x"), { nil: undefined }),
    path: paths,
    query: queries,
    credentials: fc.option(fc.constantFrom(...CREDENTIALS), { nil: undefined, freq: 8 }),
    accept: fc.option(fc.constantFrom("application/json", "text/html", "*/*", "image/png", ""), { nil: undefined }),
    body: fc.oneof(
      fc.record({ type: fc.constantFrom("application/json", "", "text/plain", "application/merge-patch+json"), text: jsonBodies }),
      fc.record({ type: fc.constant("application/x-www-form-urlencoded"), text: formBodies }),
      fc.record({ type: fc.constant("multipart/form-data"), form: multipartBodies }),
      fc.record({ type: fc.constant("multipart/form-data; boundary=zz"), text: hostileString(80) }),
    ),
  })
  .map(({ method, override, path, query, credentials, accept, body }) => {
    const headers: Record<string, string> = {};
    if (credentials) headers.authorization = `Basic ${Buffer.from(credentials, "latin1").toString("base64")}`;
    if (accept !== undefined) headers.accept = accept;
    if (override) headers["x-http-method-override"] = override;
    const carriesBody = method !== "GET" && method !== "OPTIONS";
    if (!carriesBody) return { method, path: `${path}${query}`, headers };
    if ("form" in body) return { method, path: `${path}${query}`, headers, body: body.form };
    if (body.type) headers["content-type"] = body.type;
    return { method, path: `${path}${query}`, headers, body: body.text };
  });

/**
 * Spec-prescribed 5xx: 501 for unavailable methods, 500 when a field or element update fails,
 * 500 when the dashboard server cannot be used (none configured here).
 */
const PRESCRIBED_5XX = new Set(["CRUD0103", "ROUTES0107", "ROUTES0109", "DASH0100", "DASH0101", "DASH0102", "DASH0103", "DASH0104"]);

/** Checks one answer: never a 5xx the spec does not prescribe, and the envelope on every JSON (or error) answer. */
export function expectSoundAnswer(request: HostileRequest, status: number, contentType: string | null, text: string): void {
  expectDocumentedAnswer({ method: answeredMethod(request.method, request.headers), url: request.path, status, contentType, body: text });
  const where = `${request.method} ${request.path} -> ${status} ${text.slice(0, 300)}`;
  if (status === 304 || (status < 400 && !contentType?.includes("json"))) return;
  if (request.method === "HEAD") return;
  // Pages outside /api/ (login, home) answer in HTML, errors included (bundle.md): no 5xx there either.
  if (!request.path.startsWith("/api/") && contentType?.includes("text/html")) {
    expect(status, where).toBeLessThan(500);
    return;
  }
  let body: { success?: unknown; messages?: Array<{ code?: string; type?: string }>; data?: unknown } | undefined;
  try {
    body = JSON.parse(text);
  } catch {
    // alt=html wraps the envelope in a page; the rest must be JSON.
    expect(text, where).toContain("&quot;success&quot;");
    return;
  }
  expect(typeof body?.success, where).toBe("boolean");
  expect(Array.isArray(body?.messages), where).toBe(true);
  expect(body && "data" in body, where).toBe(true);
  if (status >= 500) expect(PRESCRIBED_5XX.has(body?.messages?.[0]?.code ?? ""), where).toBe(true);
  if (status >= 400) expect(body?.success, where).toBe(false);
}

/** Fails when `promise` takes longer than `ms`: no request may hang. */
export function withinTime<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms: ${what}`)), ms);
    }),
  ]);
}
