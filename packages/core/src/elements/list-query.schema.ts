import * as v from "valibot";

// The query variables of the lists (api-v2.md, GET list: query parameters), as
// the client sends them. list-parameters.ts parses with these; the OpenAPI
// document shows them. Semantic checks (which keys can be ordered on) stay in code.

/** `slice`: a count or `all`, any case. */
export const SliceParameterSchema = v.pipe(
  v.string(),
  v.regex(/^\s*(?:\d{1,9}|[Aa][Ll][Ll])\s*$/),
  v.description("Maximum number of items returned: an integer, or all. Empty or 0: the default, 10. Above the server's cap (10000 unless configured, docs/limits.md) or not a number: 400 ROUTES0139."),
  v.examples(["10", "all"]),
);

/** `offset`: a non-negative integer. */
export const OffsetParameterSchema = v.pipe(
  v.string(),
  v.regex(/^\s*\d{1,12}\s*$/),
  v.check((value) => Number.isSafeInteger(Number(value))),
  v.description("Number of items skipped; 0 by default. Else 400 ROUTES0140."),
  v.examples(["0", "20"]),
);

/** `orderBy`: `key[:asc|desc]` items, keys are properties or (in a structure's list) its fields. */
export const OrderByParameterSchema = v.pipe(
  v.string(),
  v.description(
    "Comma-separated <property or Smart Field>[:asc|desc]. Fields only when the list is of one Smart Structure. " +
      "`id desc` closes the order unless id is in it. Bad direction: 400 CRUD0501; unknown key: 400 CRUD0506.",
  ),
  v.examples(["title:asc", "revision:desc,title"]),
);

/** `fields` of a list: what each item carries. */
export const ListFieldsParameterSchema = v.pipe(
  v.string(),
  v.description(
    "Comma-separated: document.properties (default: id, title, icon, initid, name, revision, status, state), document.properties.all, " +
      "document.properties.<prop>, document.attributes.<id>, requestParameters.slice|offset|orderBy|length. Unknown entry: 400 ROUTES0103; unknown property: 400 CRUD0202.",
  ),
  v.examples(["document.properties.all", "document.properties,document.attributes.ar_title"]),
);

/** `fields` of one element or revision. */
export const ElementFieldsParameterSchema = v.pipe(
  v.string(),
  v.description(
    "Comma-separated: document.properties, document.properties.<prop>, document.attributes, document.attributes.<id>, family.structure. " +
      "Default document.properties,document.attributes. Unknown entry: 400 ROUTES0103; unknown property: 400 CRUD0202.",
  ),
  v.examples(["document.properties.all,document.attributes"]),
);

/** The query variables of a list of Smart Elements, revisions or the trash. */
export const ListQuerySchema = v.object({
  fields: v.optional(ListFieldsParameterSchema),
  slice: v.optional(SliceParameterSchema),
  offset: v.optional(OffsetParameterSchema),
  orderBy: v.optional(OrderByParameterSchema),
});

/** The query variables of one Smart Element, revision, or of the answer to a PUT or DELETE. */
export const ElementQuerySchema = v.object({
  fields: v.optional(ElementFieldsParameterSchema),
});
