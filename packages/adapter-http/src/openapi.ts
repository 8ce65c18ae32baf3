/**
 * `@lineage/adapter-http/openapi`: how the API describes itself. `describedRoute` for an app's own
 * routes, the document made from an app's routes (`openApiDocumentOf`, with the served document's
 * `API_DOCUMENT_INFO`), the operations described and the envelope schemas an answer is held to.
 */
export * from "./openapi/index.ts";
export { API_DOCUMENT_INFO } from "./routes/api-reference.ts";
