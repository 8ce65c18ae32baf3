/**
 * The OpenAPI description of the HTTP API (GET /api/v2/openapi.json, page at /api/v2/docs).
 *
 * HOW TO DESCRIBE YOUR ROUTES (test/openapi-coverage.test.ts fails on any route without a description):
 * 1. Next to your routes, export their operations, using the valibot schemas the route validates with:
 *
 *      import { defineOperations } from "../openapi/index.ts";
 *      export const imageOperations = defineOperations([
 *        { method: "GET", path: "/api/v2/images/assets/sizes/:size/:image", tag: "Images",
 *          summary: "Resized server image", params: { size: SizeSchema },
 *          query: v.object({ inline: v.optional(InlineSchema) }),   // the schema your handler parses with
 *          response: { contentType: "image/*", description: "The image" },
 *          errors: ["IMG0404", "IMG0400"] },                         // codes of core/src/errors/error-codes.ts
 *      ]);
 *
 * 2. Add `...imageOperations` to API_OPERATIONS in openapi/api-operations.ts.
 * `path` is the Hono path from the server root (`:param`, `*`); `body: { content: { "application/json": BodySchema } }` for bodies;
 * `authenticated: false` for public routes; `etag: true` when If-None-Match gives 304; `otherResponses` for pages answering other statuses;
 * `unavailable: true` for a method the spec marks unavailable (your route answers 501 CRUD0103).
 *
 * Every answer an end-to-end test receives is validated against the document (test/openapi-answers.ts):
 * a status, a content type or a body shape your route gives must be described here, or those tests fail.
 */
export { defineOperations, type ApiOperation, type AnySchema, type OperationResponse, type OtherResponse } from "./operation.ts";
export { buildOpenApiDocument, jsonSchemaOf, openApiPath, type DocumentInfo } from "./build-document.ts";
export * from "./shared-schemas.ts";
export * from "./envelope.schema.ts";
