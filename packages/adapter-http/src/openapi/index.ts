/**
 * The OpenAPI description of the HTTP API (GET /api/v2/openapi.json, page at /api/v2/docs), made from the routes themselves.
 *
 * HOW TO DESCRIBE YOUR ROUTES: wrap the handler where you register it, with the valibot schemas it validates with:
 *
 *      import { describedRoute } from "../openapi/index.ts";
 *      app.get("/images/assets/sizes/:size/*", describedRoute({
 *        tag: "Images", summary: "Resized server image", params: { size: SizeSchema },
 *        query: v.object({ inline: v.optional(InlineSchema) }),   // the schema your handler parses with
 *        response: { contentType: "image/*", description: "The image" },
 *        errors: ["CRUD0600", "CRUD0603"],                       // codes of core/src/errors/error-codes.ts
 *      }, async (c) => { ... }));
 *
 * The method and path are the route's own (a `*` is documented as `{path}`). `body: { content: { "application/json": BodySchema } }`
 * for bodies; `authenticated: false` for public routes; `etag: true` when If-None-Match gives 304; `otherResponses` for pages
 * answering other statuses; `unavailable: true` for a method the spec marks unavailable (your route answers 501 CRUD0103).
 * A route registered without a description is missing from the document: test/openapi-coverage.test.ts fails on it.
 *
 * Every answer an end-to-end test receives is validated against the document (test/openapi-answers.ts):
 * a status, a content type or a body shape your route gives must be described, or those tests fail.
 */
export type { ApiOperation, AnySchema, OperationResponse, OtherResponse, RouteDescription } from "./operation.ts";
export { describedRoute } from "./described-route.ts";
export { describedOperations, openApiDocumentOf } from "./app-document.ts";
export { buildOpenApiDocument, jsonSchemaOf, openApiPath, type DocumentInfo } from "./build-document.ts";
export { attributesSchemaName, withStructureSchemas, type StructureSchemaSource } from "./structure-schemas.ts";
export * from "./shared-schemas.ts";
export * from "./envelope.schema.ts";
