import * as v from "valibot";
import { EVENT_TYPES, FilterSchema } from "@lineage/core";

// Shapes of the data the API answers (api-v2.md, Resources and their fields).
// Answers are built by core, not validated against these: they document, and
// test/openapi.e2e.test.ts checks real answers against them.

const text = (description: string) => v.pipe(v.string(), v.description(description));

/** A Smart Field value: value and displayValue, both possibly null; lists for multiple fields and arrays. */
export const FieldValueSchema = v.pipe(
  v.object({ value: v.unknown(), displayValue: v.unknown() }),
  v.description("A Smart Field value; a multiple field or an array column gives a list of these"),
);

/** An account as a property names it (`createdBy`): its id, display name and icon; id 0 and empty texts for none. */
const AccountReferenceSchema = v.object({ id: v.number(), title: v.string(), icon: v.string() });

/** A reference to a named thing (`workflow`...): `{ id: 0, title: "" }` for none. */
const NamedReferenceSchema = v.looseObject({ id: v.union([v.string(), v.number()]), title: v.string() });

/** Properties of a Smart Element (more with document.properties.all). */
export const PropertiesSchema = v.pipe(
  v.looseObject({
    id: v.optional(v.pipe(v.number(), v.description("Identifier of the revision"))),
    title: v.optional(v.string()),
    initid: v.optional(v.pipe(v.number(), v.description("Identifier of the lineage"))),
    icon: v.optional(text("URL of a resized image of the Smart Structure's icon, or of the default icon when it has none")),
    name: v.optional(v.nullable(text("Logical name"))),
    revision: v.optional(v.pipe(v.number(), v.description("Revision number, 0 for the first"))),
    status: v.optional(v.pipe(v.picklist(["alive", "deleted", "fixed"]), v.description("alive, deleted (in the trash), or fixed (a past revision)"))),
    state: v.optional(v.unknown()),
    owner: v.optional(text("Identifier of the account that owns the element, as a string (as the original gives it)")),
    cdate: v.optional(text("Creation date, ISO 8601 (YYYY-MM-DDTHH:MM:SS, UTC)")),
    mdate: v.optional(text("Last modification date, ISO 8601 (YYYY-MM-DDTHH:MM:SS, UTC)")),
    creationDate: v.optional(text("Creation date of the lineage, as cdate")),
    lastModificationDate: v.optional(text("Last modification date, as mdate")),
    family: v.optional(v.pipe(
      v.object({ title: v.string(), name: v.string(), id: v.number(), icon: v.string() }),
      v.description("The element's Smart Structure (a structure's parent; an empty one, id 0, for none)"),
    )),
    createdBy: v.optional(v.pipe(AccountReferenceSchema, v.description("The account that made the element (id 0 and empty texts for none)"))),
    revisionData: v.optional(v.pipe(
      v.object({ isModified: v.boolean(), id: v.number(), number: v.number(), createdBy: AccountReferenceSchema }),
      v.description("The revision: changed since it was made, its id, its number, who made it"),
    )),
    lmodify: v.optional(v.pipe(v.picklist(["Y", "N"]), v.description("Y once changed after it was made, N otherwise (and for a fixed revision)"))),
    security: v.optional(v.pipe(
      v.looseObject({
        lock: v.looseObject({ id: v.number() }),
        readOnly: v.pipe(v.boolean(), v.description("True when the reader may not change it")),
        fixed: v.boolean(),
        profil: v.looseObject({ id: v.union([v.string(), v.number()]), title: v.string() }),
        confidentiality: v.picklist(["public", "private"]),
      }),
      v.description("Lock, rights of the reader, profile (by name; id 0 for none) and field access"),
    )),
    workflow: v.optional(v.pipe(NamedReferenceSchema, v.description("The lifecycle, by name (id 0 for none)"))),
    affected: v.optional(v.pipe(NamedReferenceSchema, v.description("Allocation: always none here ({ id: 0, title: \"\" })"))),
    note: v.optional(v.pipe(NamedReferenceSchema, v.description("Note: always none here ({ id: 0, title: \"\" })"))),
    viewController: v.optional(v.pipe(NamedReferenceSchema, v.description("View controller: always none here ({ id: 0, title: \"\" })"))),
    type: v.optional(v.pipe(v.picklist(["document", "family"]), v.description("document for an element, family for a Smart Structure"))),
    usage: v.optional(v.pipe(v.literal("normal"), v.description("normal (the original's system elements do not exist here)"))),
    usefor: v.optional(v.pipe(v.literal("N"), v.description("N, as the original's ordinary elements"))),
    dprofid: v.optional(v.pipe(v.literal(0), v.description("Dynamic profile: none here"))),
    allocated: v.optional(v.pipe(v.null(), v.description("None here"))),
    confidential: v.optional(v.pipe(v.null(), v.description("None here"))),
    cvid: v.optional(v.pipe(v.null(), v.description("None here"))),
    postitid: v.optional(v.pipe(v.null(), v.description("None here"))),
    prelid: v.optional(v.pipe(v.null(), v.description("None here"))),
    tags: v.optional(v.pipe(v.null(), v.description("None here"))),
    version: v.optional(v.pipe(v.null(), v.description("None here"))),
  }),
  v.description("Properties of a Smart Element; document.properties.all gives every property"),
);

/** Smart Field values by field id; fields of visibility I are never returned. */
export const AttributesSchema = v.pipe(
  v.record(v.string(), v.union([FieldValueSchema, v.array(v.unknown())])),
  v.description("Smart Field values by field id; fields of visibility I are never returned"),
);

/** A Smart Element (or revision) in a collection; `fields` without document.properties leaves the properties out. */
export const ElementItemSchema = v.object({
  properties: v.optional(PropertiesSchema),
  attributes: v.optional(AttributesSchema),
  uri: text("URI of the Smart Element"),
});

/** `data.document` of a consultation, PUT or DELETE. */
export const DocumentSchema = v.object({
  uri: text("URI of the Smart Element"),
  properties: v.optional(PropertiesSchema),
  attributes: v.optional(AttributesSchema),
  structure: v.optional(v.pipe(v.unknown(), v.description("With fields=family.structure: the visible structure of the Smart Structure"))),
});

/** The paging echoed by every list. */
export const RequestParametersSchema = v.object({
  slice: v.union([v.number(), v.literal("ALL")]),
  offset: v.number(),
  length: v.pipe(v.number(), v.description("Number of items returned")),
  orderBy: text("Applied order, e.g. `title asc, id desc`"),
  filter: v.optional(v.pipe(FilterSchema, v.description("The filter as applied (a group at its root, values in their stored form); with a filter only"))),
  total: v.optional(v.pipe(v.number(), v.description("With count=1: how many elements match for the caller"))),
});

/** A lifecycle state (api-v2.md, Lifecycle state object). */
export const StateSchema = v.looseObject({
  id: v.string(),
  isCurrentState: v.boolean(),
  label: v.string(),
  activity: v.nullable(v.string()),
  displayValue: v.string(),
  color: text("#RRGGBB"),
  uri: v.optional(v.string()),
  transition: v.optional(
    v.nullable(
      v.looseObject({
        uri: v.string(),
        label: v.string(),
        id: v.optional(v.string()),
        error: v.optional(v.nullable(v.string())),
        authorized: v.optional(v.boolean()),
      }),
    ),
  ),
});

/** An item of an enumerate. */
export const EnumItemSchema = v.object({
  key: v.string(),
  label: text("Label in the user's locale"),
  originalLabel: v.string(),
  parentkey: v.nullable(v.string()),
  path: v.string(),
});

/** Schemas shown once under components.schemas and referenced from operations. */
/** A changed field's value before and after, as the API answers the field's `value`. */
const ChangeValueSchema = v.pipe(
  v.union([v.string(), v.number(), v.null(), v.array(v.unknown())]),
  v.description("The field's `value` as the API answers it: a list for a multiple field, one entry per row for an array column"),
);

/** One event of the log (docs/events.md). */
export const ElementEventSchema = v.pipe(
  v.object({
    seq: v.pipe(v.number(), v.integer(), v.description("Position in the log: strictly increasing in commit order, never reused")),
    type: v.pipe(v.picklist(EVENT_TYPES), v.description("What happened")),
    time: text("When, ISO 8601 with milliseconds (UTC)"),
    initid: v.pipe(v.number(), v.description("The element's lineage")),
    id: v.pipe(v.number(), v.description("Its latest revision after the change")),
    name: v.nullable(text("Its logical name")),
    structure: text("Its Smart Structure"),
    revision: v.pipe(v.number(), v.description("Its revision number after the change")),
    state: v.nullable(text("Its state after the change")),
    actor: text("The login of who made the change"),
    transition: v.optional(v.pipe(
      v.object({ id: v.nullable(v.string()), from: v.string(), to: v.string() }),
      v.description("element.state: the transition run (id null: a state forced by an administrator)"),
    )),
    changes: v.optional(v.pipe(
      v.record(v.string(), v.object({ before: ChangeValueSchema, after: ChangeValueSchema })),
      v.description("created, updated, revised, state: the fields whose values changed that the reader may see (passwords never)"),
    )),
    element: v.optional(v.pipe(v.number(), v.description("folder.added, folder.removed: the initid added or removed"))),
  }),
  v.description("One committed change of an element"),
);

export const SHARED_SCHEMAS = {
  FieldValue: FieldValueSchema,
  Properties: PropertiesSchema,
  Attributes: AttributesSchema,
  ElementItem: ElementItemSchema,
  Document: DocumentSchema,
  RequestParameters: RequestParametersSchema,
  Filter: FilterSchema,
  State: StateSchema,
  EnumItem: EnumItemSchema,
  ElementEvent: ElementEventSchema,
};
