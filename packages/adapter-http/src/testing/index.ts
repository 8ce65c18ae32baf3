/** `@lineage/adapter-http/testing`: hostile inputs for property tests (fast-check, an optional peer dependency). */
export { TOKENS, hostileJson, hostileString, parsedOrRefused, refusalOf } from "./hostile-arbitraries.ts";
