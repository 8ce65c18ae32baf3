import type { ErrorCode } from "@lineage/core";
import type * as v from "valibot";

/** Methods an operation can have; the 501 answers of the other methods are not operations. */
export type OperationMethod = "GET" | "PUT" | "POST" | "DELETE" | "PATCH";

/** Any valibot schema; the document converts it with @valibot/to-json-schema. */
export type AnySchema = v.GenericSchema<unknown, unknown>;

/** What a successful answer carries. */
export interface OperationResponse {
  /** 200 unless said. */
  readonly status?: number;
  readonly description?: string;
  /** Schema of the envelope's `data` (JSON answers), or of the whole body when `contentType` is not JSON. */
  readonly data?: AnySchema;
  /** `application/json` (in the envelope) unless said: `text/html`, `image/*`, `application/xml`...; null: no body (a redirect). */
  readonly contentType?: string | null;
  /** Other types the same answer may come in (`application/xml` for a `.xml` suffix), each with its schema or none. */
  readonly alternatives?: Readonly<Record<string, AnySchema | null>>;
  /** False: a JSON answer given as it is, `data` being the whole body (the OpenAPI document itself). */
  readonly envelope?: boolean;
}

/** An answer besides the success and the error codes' envelopes (the pages of /login: 401 with the form again...). */
export interface OtherResponse extends OperationResponse {
  readonly status: number;
}

/**
 * One operation of the HTTP API: a route's description with the method and path it is registered with.
 * The schemas are the ones the route validates with, so the document cannot drift.
 */
export interface ApiOperation {
  readonly method: OperationMethod;
  /** The path exactly as registered in Hono, from the server root: `/api/v2/smart-elements/:docid`. */
  readonly path: string;
  /** The section of api-v2.md (`Smart Elements`, `Lifecycle`...): the group shown in the reference page. */
  readonly tag: string;
  readonly summary: string;
  readonly description?: string;
  /** Path parameters by name; a parameter not listed is documented as a plain string. */
  readonly params?: Readonly<Record<string, AnySchema>>;
  /** The query variables: a valibot `object` schema whose entries are the variables. */
  readonly query?: AnySchema;
  /** The request body: its schema by content type (`{ "application/json": BodySchema }`). */
  readonly body?: { readonly content: Readonly<Record<string, AnySchema>>; readonly required?: boolean; readonly description?: string };
  readonly response?: OperationResponse;
  /** Error codes of this operation (core/src/errors/error-codes.ts gives their status and text). */
  readonly errors?: readonly ErrorCode[];
  /** The envelope's `data` of the refusals that carry some, by code (EVENT0410: `{ oldest }`); null for the others. */
  readonly errorData?: Readonly<Partial<Record<ErrorCode, AnySchema>>>;
  /** False for public routes; authenticated routes also list the authentication errors. Default: true. */
  readonly authenticated?: boolean;
  /** A method the spec marks unavailable: the route answers 501 CRUD0103, and the document says only that. */
  readonly unavailable?: boolean;
  /** Answers carry an ETag; If-None-Match naming it gives 304 with no body. */
  readonly etag?: boolean;
  /** Answers besides the success and the errors of `errors` (pages outside /api/). */
  readonly otherResponses?: readonly OtherResponse[];
  /** With an extension other than .json in the URL, errors are plain text `error (<code>): <text>` (api-v2.md, Images, rule 7). */
  readonly plainTextErrors?: boolean;
}

/** What a route says of itself (describedRoute): its method and path are the ones it is registered with. */
export type RouteDescription = Omit<ApiOperation, "method" | "path">;
