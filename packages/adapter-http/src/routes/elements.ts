import { Hono, type Context } from "hono";
import { ElementQuerySchema, FilteredListQuerySchema, LineageError, parseFieldsSelection, type ErrorCode } from "@lineage/core";
import * as v from "valibot";
import { successEnvelope } from "../envelope.ts";
import { DocumentSchema, ElementItemSchema, RequestParametersSchema, describedRoute, type RouteDescription } from "../openapi/index.ts";
import { ELEMENT_PARAMS } from "../openapi/path-parameters.ts";
import { PutFormBodySchema, PutJsonBodySchema } from "../put-body.schema.ts";
import type { HttpEnv } from "../http-env.ts";
import { readPutValues } from "../request-body.ts";
import { headerOf } from "../request-header.ts";
import { splitFormat } from "../resource-name.ts";
import { filteredListQueryOf, respondWithEtag } from "../respond.ts";

/** The formats an element's path takes: JSON, its XML and CSV exports, and its page. */
const ELEMENT_FORMATS = ["json", "xml", "csv", "html"] as const;

/** The element a PUT or DELETE names; the exports and the page of the element are read-only (501). */
function writableName(segment: string, method: string): string {
  const { name, format } = splitFormat(segment, ELEMENT_FORMATS);
  if (format !== undefined && format !== "json") throw new LineageError("CRUD0103", [method, segment]);
  return name;
}

/**
 * Where `<docid>.html` leads: the console's page of the element, as the original's `.html` shows
 * its page (every docid value's `url` names it). The console checks who may view it.
 */
export function elementPageUri(name: string): string {
  return `/console/elements/${encodeURIComponent(name)}`;
}

/**
 * The `fields` of a write's answer, checked before anything is written: a write must not be
 * stored and then answered 400 ROUTES0103 or CRUD0202 for the shape of its answer.
 */
export function writeAnswerFields(c: Context): string | undefined {
  const fields = c.req.query("fields");
  parseFieldsSelection(fields, "one");
  return fields;
}

const TAG = "Smart Elements";
/** What GET of one element takes: `fields`, and the options of its exports. */
const ReadQuerySchema = v.object({
  ...ElementQuerySchema.entries,
  withFiles: v.optional(v.pipe(v.picklist(["true", "false"]), v.description("With a .xml suffix: true puts each file's bytes inside its tag (base64, with mime and title) instead of its href"))),
  inline: v.optional(v.pipe(v.string(), v.description("With a .csv suffix: answer text/plain instead of text/csv"))),
});
/** How the writes of an element take If-Match (docs/concurrency.md). */
export const IF_MATCH = "With an If-Match header (the ETag a GET gave, a list of them, or *), nothing is written unless it names the element's current ETag: 412 CRUD0238 otherwise.";
const LIST_ERRORS: readonly ErrorCode[] = ["FILTER0001", "FILTER0002", "FILTER0003", "FILTER0004", "ROUTES0103", "CRUD0202", "ROUTES0139", "ROUTES0140", "ROUTES0141", "CRUD0501", "CRUD0506"];
const READ_ERRORS: readonly ErrorCode[] = ["ROUTES0100", "ROUTES0101", "ROUTES0102", "ROUTES0103", "CRUD0202"];
const FAMILY_ERRORS: readonly ErrorCode[] = ["ROUTES0104", "ROUTES0105"];
/** What PUT takes, and POST on a structure's collection too. */
const PUT_BODY = { content: { "application/json": PutJsonBodySchema, "application/x-www-form-urlencoded": PutFormBodySchema, "multipart/form-data": PutFormBodySchema } };
const WriteResultSchema = v.object({
  document: DocumentSchema,
  duration: v.optional(v.pipe(v.string(), v.description("Seconds spent, as a string"))),
});

/** The descriptions of a collection's routes (/smart-elements/ or a structure's), for the OpenAPI document. */
function collectionDescriptions(family: boolean): Record<"list" | "read" | "modify" | "remove", RouteDescription> {
  const of = family ? " of a Smart Structure" : "";
  const familyErrors = family ? FAMILY_ERRORS : [];
  return {
    list: {
      tag: TAG, summary: `List Smart Elements${of}`, params: ELEMENT_PARAMS, query: FilteredListQuerySchema,
      description: "Alive elements the user may view, ordered by title by default. The list has no cache (no ETag).",
      response: { data: v.object({ requestParameters: RequestParametersSchema, uri: v.string(), documents: v.array(ElementItemSchema) }) },
      errors: [...LIST_ERRORS, ...(family ? (["ROUTES0105"] as const) : [])],
    },
    read: {
      tag: TAG, summary: `Read a Smart Element${of}`, params: ELEMENT_PARAMS, query: ReadQuerySchema,
      description: "The latest revision of the lineage, whatever identifier names it. A .xml suffix answers the XML export in the original's import format " +
        "(application/xml: fields nested in their sets, one element per array row, docid and account values by name with the title as text, files as href, " +
        "xsi:nil for empty values, granted=\"false\" for what the caller may not see and for passwords), which `lineage import` reads back; " +
        "a .csv suffix answers the CSV export (text/csv, ; separated: the //FAM, ORDER and DOC lines of the original's import format); " +
        "a .html suffix (the url of docid values) redirects to the console's page of the element. " +
        "Answers carry an ETag; If-None-Match gives 304 on JSON.",
      response: {
        data: v.object({ document: DocumentSchema }),
        alternatives: {
          "application/xml": v.pipe(v.string(), v.description("With a .xml suffix: the XML export")),
          "text/csv": v.pipe(v.string(), v.description("With a .csv suffix: the CSV export")),
          "text/plain": v.pipe(v.string(), v.description("With a .csv suffix and `inline`: the CSV export, for a browser to show")),
        },
      },
      otherResponses: [{ status: 302, contentType: null, description: "With a .html suffix: to the console's page of the element (/console/elements/<docid>), which checks who may view it" }],
      etag: true,
      errors: [...READ_ERRORS, "CRUD0502", "CRUD0507", ...familyErrors],
    },
    modify: {
      tag: TAG, summary: `Modify a Smart Element${of}`, params: ELEMENT_PARAMS, query: ElementQuerySchema,
      description: "Changes the latest revision in place. JSON body, or one form variable per Smart Field (usable from an HTML form). " +
        "A field the caller may not change (visibility R, an array named itself, or a new number of rows for an array with a column the caller may not write) " +
        "is refused with 500 ROUTES0107 naming it, and nothing is written. " +
        "A lock another account holds (/locks/) refuses the change with 403 CRUD0201. " +
        `${IF_MATCH} The answer carries the element's new ETag.`,
      body: PUT_BODY,
      response: { data: WriteResultSchema },
      errors: [...READ_ERRORS, ...familyErrors, "CRUD0103", "CRUD0201", "CRUD0213", "CRUD0218", "CRUD0238", "ROUTES0106", "ROUTES0107", "ROUTES0108", "ROUTES0109", "ROUTES0113", "VALUE0001", "VALUE0002"],
    },
    remove: {
      tag: TAG, summary: `Put a Smart Element${of} in the trash`, params: ELEMENT_PARAMS, query: ElementQuerySchema,
      description: "The whole lineage goes to the trash (status deleted); it stays readable and restorable under /api/v2/trash/. Physical deletion is impossible. " +
        `A lock another account holds (/locks/) refuses it with 400 ROUTES0111. ${IF_MATCH}`,
      response: { data: WriteResultSchema },
      errors: [...READ_ERRORS, ...familyErrors, "CRUD0103", "CRUD0238", "ROUTES0110", "ROUTES0111"],
    },
  };
}

/** POST on a structure's collection creates an element (the original's FamilyDocumentCreation); on /smart-elements/ it stays 501. */
const CREATE: RouteDescription = {
  tag: TAG, summary: "Create a Smart Element of a Smart Structure",
  params: ELEMENT_PARAMS, query: ElementQuerySchema,
  description: "The same bodies as PUT: JSON, or one form variable per Smart Field (multipart for files). The new element is owned by the caller, " +
    "in the first state of the structure's lifecycle, with the history line \"Created by API\" (in the caller's language). Allowed by the " +
    "`create` grant of the structure's profile (those who may edit when the profile has none): 403 API0204 otherwise. A needed field left " +
    "empty, an unknown field or a bad value is refused naming the field, a read-only one with 500 ROUTES0107; nothing is written then. " +
    "Answers 201 with the element, its ETag, and its URI in Location.",
  body: PUT_BODY,
  response: { status: 201, description: "Created", data: v.object({ document: DocumentSchema }) },
  errors: ["CRUD0200", "API0204", "CRUD0218", "ROUTES0103", "CRUD0202", "ROUTES0106", "ROUTES0107", "ROUTES0108", "VALUE0001", "VALUE0002"],
};


/**
 * The Smart Element collection (api-v2.md, Smart Element collection):
 * /api/v2/smart-elements/ and /api/v2/smart-structures/<family>/smart-elements/.
 */
export function elementRoutes(): Hono<HttpEnv> {
  const app = new Hono<HttpEnv>({ strict: false });

  const list = async (c: Context<HttpEnv>, family?: string) => {
    const data = await c.get("platform").elements.list(c.get("principal"), { ...filteredListQueryOf(c), family });
    return c.json(successEnvelope(data));
  };
  const [plain, ofStructure] = [collectionDescriptions(false), collectionDescriptions(true)];
  app.get("/smart-elements", describedRoute(plain.list, (c) => list(c)));
  app.get("/smart-structures/:family/smart-elements", describedRoute(ofStructure.list, (c) => list(c, c.req.param("family"))));
  app.post("/smart-structures/:family/smart-elements", describedRoute(CREATE, async (c) => {
    const started = performance.now();
    const fields = writeAnswerFields(c);
    const { values, caseInsensitive } = await readPutValues(c);
    const { platform, principal, deadline, stamp } = c.var;
    const created = await platform.elements.createByApi(principal, c.req.param("family") ?? "", { values, caseInsensitive, deadline, stamp, fields, startedAt: started });
    // The original answers the element alone, without PUT's duration.
    const { document } = created.data;
    c.header("ETag", created.etag);
    c.header("Location", document.uri);
    return c.json(successEnvelope({ document }), 201);
  }));

  for (const [prefix, described] of [["/smart-elements/:docid", plain], ["/smart-structures/:family/smart-elements/:docid", ofStructure]] as const) {
    app.get(prefix, describedRoute(described.read, async (c) => {
      const { name, format } = splitFormat(c.req.param("docid") ?? "", ELEMENT_FORMATS);
      if (format === "html") return c.redirect(elementPageUri(name), 302);
      const family = c.req.param("family");
      // c.get, not c.var: Hono builds a new object of every variable at each c.var.
      const platform = c.get("platform");
      const principal = c.get("principal");
      const stamp = c.get("stamp");
      const options = { fields: c.req.query("fields"), family, stamp };
      if (format === "xml") {
        const { xml, etag } = await platform.elements.readXml(principal, name, { ...options, withFiles: c.req.query("withFiles") === "true" });
        c.header("ETag", etag);
        return c.body(xml, 200, { "Content-Type": "application/xml; charset=utf-8" });
      }
      if (format === "csv") {
        const { csv, etag } = await platform.elements.readCsv(principal, name, options);
        c.header("ETag", etag);
        // As the original: `inline` asks for text/plain, which a browser shows instead of saving.
        return c.body(csv, 200, { "Content-Type": `${c.req.query("inline") === undefined ? "text/csv" : "text/plain"}; charset=utf-8` });
      }
      const reading = await platform.elements.read(principal, name, options);
      return respondWithEtag(c, reading.etag, reading.data);
    }));
    app.put(prefix, describedRoute(described.modify, async (c) => {
      const started = performance.now();
      const name = writableName(c.req.param("docid") ?? "", c.req.method);
      const fields = writeAnswerFields(c);
      const { values, caseInsensitive } = await readPutValues(c);
      const { platform, principal, deadline, stamp } = c.var;
      const ifMatch = headerOf(c, "if-match");
      const updated = await platform.elements.update(principal, name, {
        values, caseInsensitive, family: c.req.param("family"), deadline, stamp, ifMatch, fields, startedAt: started,
      });
      c.header("ETag", updated.etag);
      return c.json(successEnvelope(updated.data));
    }));
    app.delete(prefix, describedRoute(described.remove, async (c) => {
      const started = performance.now();
      const name = writableName(c.req.param("docid") ?? "", c.req.method);
      const fields = writeAnswerFields(c);
      const { platform, principal, deadline, stamp } = c.var;
      const deleted = await platform.elements.delete(principal, name, {
        family: c.req.param("family"), deadline, stamp, ifMatch: headerOf(c, "if-match"), fields, startedAt: started,
      });
      return c.json(successEnvelope(deleted.data));
    }));
  }
  return app;
}
