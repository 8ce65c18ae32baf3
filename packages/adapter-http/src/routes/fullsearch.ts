import { Hono } from "hono";
import { FilteredListQuerySchema, MAX_QUERY_LENGTH, type ErrorCode } from "@lineage/core";
import * as v from "valibot";
import { successEnvelope } from "../envelope.ts";
import { ElementItemSchema, RequestParametersSchema, describedRoute, type RouteDescription } from "../openapi/index.ts";
import type { HttpEnv } from "../http-env.ts";
import { notAvailable } from "../not-available.ts";
import { filteredListQueryOf } from "../respond.ts";

const TAG = "Full-text search";
const ADMIN_PATH = "/api/admin/fullsearch/domains";

/** The search route's path parameter. */
export const DomainParamSchema = v.pipe(v.string(), v.description("Search domain name, as a bundle's searchDomains declare it"), v.examples(["articles"]));

/** The search route's query variables: the list's, plus q. */
export const FullSearchQuerySchema = v.object({
  ...FilteredListQuerySchema.entries,
  q: v.optional(v.pipe(
    v.string(),
    v.maxLength(MAX_QUERY_LENGTH),
    v.description('Search terms: words all required, `or` between alternatives, `-word` excludes, `"a phrase"`, `prefix*`. Empty: every element of the domain, in orderBy order'),
    v.examples(['bad -cats', '"segmentation fault" or crash*']),
  )),
});

const SearchResultItemSchema = v.object({
  ...ElementItemSchema.entries,
  highlights: v.pipe(v.string(), v.description("About 35 words of the text around the matches, each matched word inside [[[ ]]]")),
});

const SizeSchema = v.object({ size: v.string(), prettySize: v.string() });
const WeightedSchema = v.object({ field: v.string(), weight: v.picklist(["A", "B", "C", "D"]) });
const DomainEntrySchema = v.object({
  name: v.string(),
  lang: v.string(),
  stem: v.string(),
  description: v.string(),
  configs: v.array(v.looseObject({
    structure: v.string(),
    collection: v.optional(v.string()),
    fields: v.array(WeightedSchema),
    files: v.array(WeightedSchema),
    callables: v.array(v.object({ name: v.string(), weight: v.picklist(["A", "B", "C", "D"]) })),
  })),
  database: v.object({
    structures: v.record(v.string(), v.object({ totalToIndex: v.number(), totalIndexed: v.number(), totalDirty: v.number() })),
    files: v.array(v.object({ status: v.picklist(["D", "K", "W"]), count: v.number(), label: v.string() })),
    size: SizeSchema,
  }),
});
const ADMIN_ERRORS: readonly ErrorCode[] = ["ROUTES0131"];

const SEARCH: RouteDescription = {
  tag: TAG, summary: "Search a domain",
    description: "Elements of the domain matching q that the user may view, best first (orderBy applies only without q), each with highlights.",
    params: { domain: DomainParamSchema }, query: FullSearchQuerySchema,
    response: {
      data: v.object({
        requestParameters: v.object({ ...RequestParametersSchema.entries, q: v.string(), searchDomain: v.string() }),
        uri: v.string(),
        documents: v.array(SearchResultItemSchema),
      }),
    },
  errors: ["FSEA0002", "FSEA0003", "FSEA0004", "FILTER0001", "FILTER0002", "FILTER0003", "FILTER0004", "ROUTES0103", "CRUD0202", "ROUTES0139", "ROUTES0140", "ROUTES0141", "CRUD0501", "CRUD0506"],
};
const DOMAINS: RouteDescription = {
  tag: TAG, summary: "Search domains, their configuration and volumes",
    description: "Role fullsearch_administrator or admin.",
    response: { data: v.object({ config: v.array(DomainEntrySchema), fileCacheSize: SizeSchema, nextUpdateDate: v.pipe(v.string(), v.description("YYYY-MM-DD HH:MM:SS (UTC)")) }) },
  errors: ADMIN_ERRORS,
};
const REINDEX: RouteDescription = {
  tag: TAG, summary: "Reindex outdated data",
    description: "Applies pending changes, indexes missing elements and removes stray ones; answers the elements reindexed per domain. Role fullsearch_administrator or admin.",
    response: { data: v.record(v.string(), v.array(v.object({ id: v.number(), title: v.string() }))) },
  errors: ADMIN_ERRORS,
};

/**
 * The full-text search routes (api-v2.md, Full-text search): the search of
 * a domain under /api/v2, and the administration of the domains under
 * /api/admin. Mount at the server root.
 */
export function fullsearchRoutes(): Hono<HttpEnv> {
  const app = new Hono<HttpEnv>({ strict: false });
  app.get("/api/v2/fullsearch/domains/:domain/smart-elements", describedRoute(SEARCH, async (c) => {
    const { platform, principal, stamp } = c.var;
    const data = await platform.fullsearch.search(principal, c.req.param("domain") ?? "", { ...filteredListQueryOf(c), q: c.req.query("q"), stamp });
    return c.json(successEnvelope(data));
  }));
  app.get(ADMIN_PATH, describedRoute(DOMAINS, async (c) => c.json(successEnvelope(await c.var.platform.fullsearch.describeDomains(c.var.principal)))));
  app.post(ADMIN_PATH, describedRoute(REINDEX, async (c) => c.json(successEnvelope(await c.var.platform.fullsearch.reindexOutdated(c.var.principal)))));
  app.all(ADMIN_PATH, notAvailable);
  return app;
}
