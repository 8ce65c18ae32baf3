import * as v from "valibot";
import { HTTP_RIGHTS, LOGIN_PATTERN } from "../accounts/account.ts";
import { FIELD_TYPES, VISIBILITIES } from "../structures/smart-field.ts";
import { LAYER_ACCESSES } from "../access/field-access.ts";
import { FIELD_SET_TYPES } from "../structures/field-set.ts";

/*
 * The bundle format (bundle.md), as one valibot schema. It only validates:
 * no transforms and no defaults, so a valid input is its own output and
 * docs/bundle.schema.json is generated from it (pnpm --filter @lineage/core schema).
 * Cross references (a structure's lifecycle, grants, element values...) are
 * checked by bundle-problems.ts.
 */

/** Structure, lifecycle, profile and enumerate names. */
export const NAME_PATTERN = /^[A-Za-z][A-Za-z0-9_]{0,62}$/;
/** Field ids (columns of arrays included). */
export const FIELD_ID_PATTERN = /^[A-Za-z][A-Za-z0-9_]{0,62}$/;
/** Role, group, state, transition, search domain and dashboard identifiers. */
export const IDENTIFIER_PATTERN = /^[A-Za-z][A-Za-z0-9_.-]{0,63}$/;
/** Logical names of elements: never all digits, so they cannot be taken for ids. */
export const LOGICAL_NAME_PATTERN = /^[A-Za-z][A-Za-z0-9_.-]{0,127}$/;
export const LOCALE_PATTERN = /^[a-z]{2,3}(?:[-_][A-Za-z0-9]{2,8})*$/;

const name = (what: string) =>
  v.pipe(v.string(), v.regex(NAME_PATTERN, `${what}: a letter, then letters, digits or _ (63 at most)`), v.description(what));
const identifier = (what: string) =>
  v.pipe(v.string(), v.regex(IDENTIFIER_PATTERN, `${what}: a letter, then letters, digits, _ . or - (64 at most)`), v.description(what));
const fieldId = (what: string) =>
  v.pipe(v.string(), v.regex(FIELD_ID_PATTERN, `${what}: a letter, then letters, digits or _ (63 at most)`), v.description(what));
const login = (what: string) =>
  v.pipe(v.string(), v.regex(LOGIN_PATTERN, `${what}: letters, digits and . _ @ - (64 at most)`), v.description(what));
const text = (what: string) => v.pipe(v.string(), v.description(what));
const flag = (what: string) => v.optional(v.pipe(v.boolean(), v.description(what)));
const list = <T extends v.GenericSchema>(item: T, what: string) => v.optional(v.pipe(v.array(item), v.description(what)));

/** A label: one string, or a map from locale to string. */
export const LabelSchema = v.pipe(
  v.union(
    [v.string(), v.record(v.pipe(v.string(), v.regex(LOCALE_PATTERN, "a locale such as en, fr or pt-BR")), v.string())],
    "a label is a string or a map from locale to string",
  ),
  v.title("Label"),
  v.description('A string, or a map from locale to string ({"en": "Title", "fr": "Titre"}); served in the user\'s locale, else en, else the first.'),
);
/** Labels are referenced as the Label definition of the JSON Schema (a piped copy would be inlined). */
const label = (_what: string) => v.optional(LabelSchema);

/** `role:ID`, `group:ID`, `user:LOGIN` or `right:METHOD`; the form and the target are checked by bundle-problems.ts. */
const GrantEntrySchema = v.pipe(v.string(), v.description("role:ID, group:ID, user:LOGIN or right:METHOD (the accounts holding that global HTTP right)"));
/** In profiles, `owner` too: each element's owner, for that element. */
const ProfileGrantEntrySchema = v.pipe(v.string(), v.description("role:ID, group:ID, user:LOGIN, right:METHOD, or owner (each element's owner, for that element)"));
const grants = (what: string) => list(GrantEntrySchema, what);
const profileGrants = (what: string) => list(ProfileGrantEntrySchema, what);

export const RoleSchema = v.strictObject({
  id: identifier("The role id; the role admin always exists and holds every right"),
  label: label("The role's label"),
});

export const GroupSchema = v.strictObject({
  id: identifier("The group id"),
  label: label("The group's label"),
  roles: list(identifier("A role id"), "Roles every member holds (default none)"),
});

export const UserSchema = v.strictObject({
  login: login("The login, unique: re-importing keeps the account's id"),
  password: v.optional(v.pipe(v.string(), v.minLength(1, "a password cannot be empty"), v.description("Clear-text password, stored hashed; no password: the current one is kept (none for a new account)"))),
  displayName: v.optional(text("Name shown for the account (default: the login)")),
  roles: list(identifier("A role id"), "Roles of the account (default none)"),
  groups: list(identifier("A group id"), "Groups the account belongs to (default none)"),
  locale: v.optional(v.pipe(v.string(), v.regex(LOCALE_PATTERN, "a locale such as en, fr or pt-BR"), v.description("Locale of labels and messages (default en)"))),
  rights: list(v.picklist(HTTP_RIGHTS, `a right is one of ${HTTP_RIGHTS.join(", ")}`), "Global HTTP API rights (default all four)"),
});

export const AccountsSchema = v.strictObject({
  roles: list(RoleSchema, "Roles"),
  groups: list(GroupSchema, "Groups of accounts"),
  users: list(UserSchema, "User accounts"),
});

export const EnumItemSchema = v.strictObject({
  key: v.pipe(v.string(), v.minLength(1, "a key cannot be empty"), v.description("The stored value")),
  label: LabelSchema,
  parentKey: v.optional(v.pipe(v.string(), v.description("Key of the parent item in the same enumerate: enumerates may be trees"))),
});

export const EnumeratesSchema = v.pipe(
  v.record(name("Enumerate name"), v.array(EnumItemSchema)),
  v.description("Enumerates by name, each a list of items in display order"),
);

export const ProfileSchema = v.strictObject({
  name: name("The profile name, named by structures"),
  grants: v.optional(v.pipe(
    v.strictObject({
      view: profileGrants("Who may view the elements"),
      edit: profileGrants("Who may change the elements"),
      delete: profileGrants("Who may delete the elements"),
      create: profileGrants("Who may create elements through the API (default: those who may edit)"),
    }),
    v.description("Entries granted each permission; admin holds all of them"),
  )),
});

export const FieldAccessLayerSchema = v.strictObject({
  grant: v.pipe(GrantEntrySchema, v.description("Who the layer is granted to: role:ID, group:ID or user:LOGIN")),
  fields: v.pipe(
    v.record(fieldId("A field id"), v.picklist(LAYER_ACCESSES, "a layer grants R (read) or W (read and write)")),
    v.description("What the layer grants, by field id: R read, W read and write; it adds to the field's own visibility, never takes from it"),
  ),
});

export const FieldAccessSchema = v.strictObject({
  name: name("The field access name, named by structures (fieldAccess)"),
  layers: v.pipe(v.array(FieldAccessLayerSchema), v.description("Layers: each widens the visibility of fields for the accounts it is granted to; granted layers add up")),
});

const FieldTypeSchema = v.picklist(FIELD_TYPES, `a field type is one of ${FIELD_TYPES.join(", ")}`);
// A transition's parameters go to its hooks as given, and a password must never be kept as given.
const PARAMETER_TYPES = FIELD_TYPES.filter((type) => type !== "array" && type !== "password");
const OptionsSchema = v.optional(v.pipe(v.record(v.string(), v.string()), v.description("Free options of the field, served as they are")));

export const TransitionParameterSchema = v.strictObject({
  id: fieldId("Parameter id"),
  type: v.pipe(v.picklist(PARAMETER_TYPES, `a parameter type is one of ${PARAMETER_TYPES.join(", ")}`), v.description("Typed like a field")),
  label: label("The parameter's label"),
  needed: flag("The transition refuses to run without it"),
  multiple: flag("The value is a list"),
  enum: v.optional(name("Enumerate of an enum parameter")),
  options: OptionsSchema,
});

export const LifecycleStateSchema = v.strictObject({
  id: identifier("State id"),
  label: label("The state's label"),
  activity: label("What is done in this state"),
  color: v.optional(text("Color of the state, e.g. #00AA00")),
  profile: v.optional(name("Profile an element takes when it enters this state, unless it has its own")),
});

export const HooksSchema = v.strictObject({
  m0: v.optional(text("Hook run before checking the transition")),
  m1: v.optional(text("Hook run before the state changes")),
  m2: v.optional(text("Hook run after the state changed")),
  m3: v.optional(text("Hook run at the very end")),
});

export const TransitionSchema = v.strictObject({
  id: identifier("Transition id"),
  from: identifier("State the transition leaves"),
  to: identifier("State the transition reaches"),
  label: label("The transition's label"),
  askComment: flag("Asks for a comment"),
  askAttributes: list(TransitionParameterSchema, "Parameters asked when the transition runs"),
  grants: grants("Who may run it (admin always may)"),
  hooks: v.optional(v.pipe(HooksSchema, v.description("Names of hooks registered in code"))),
});

export const LifecycleSchema = v.strictObject({
  name: name("The lifecycle name, named by structures"),
  label: label("The lifecycle's label"),
  firstState: identifier("State of new elements"),
  states: v.pipe(v.array(LifecycleStateSchema), v.description("States")),
  transitions: list(TransitionSchema, "Transitions between states"),
});

const VisibilitySchema = (what: string) => v.optional(v.pipe(v.picklist(VISIBILITIES, "visibility is W, R, H or I"), v.description(what)));
const insertAfter = (what: string) => v.optional(v.pipe(v.string(), v.regex(/^(?:::first|[A-Za-z][A-Za-z0-9_]{0,62})$/, "insertAfter is a field or set id, or ::first"), v.description(what)));

const fieldEntries = {
  id: fieldId("Field id, unique in the structure (array columns included)"),
  type: v.pipe(FieldTypeSchema, v.description("Value type")),
  label: label("The field's label"),
  needed: flag("A value is required"),
  multiple: flag("The value is a list"),
  visibility: VisibilitySchema("W writable (default), R read-only, H hidden in forms, I invisible (never disclosed)"),
  enum: v.optional(name("Enumerate of an enum field")),
  structure: v.optional(name("For docid fields: the structure targets must belong to, or one that extends it")),
  options: OptionsSchema,
};

/** A column of an array field. */
export const ColumnSchema = v.strictObject(fieldEntries);

export const FieldSchema = v.strictObject({
  ...fieldEntries,
  fields: list(ColumnSchema, "Columns of an array field"),
  fieldSet: v.optional(fieldId("The frame the field stands in; none: at the top, before the frames and tabs")),
  insertAfter: insertAfter("The field of the same frame it stands right after (::first: first of it); else where it is listed, a child's after its parent's"),
});

/** A frame or tab: a field set, holding fields (a frame) or frames (a tab). */
export const FieldSetSchema = v.strictObject({
  id: fieldId("Set id, unique in the structure among fields and sets"),
  type: v.pipe(v.picklist(FIELD_SET_TYPES, `a field set type is one of ${FIELD_SET_TYPES.join(", ")}`), v.description("frame (holds fields) or tab (holds frames)")),
  label: label("The set's label"),
  visibility: VisibilitySchema("W (default); what the set holds keeps no right it lacks: I hides it all, R makes it read-only, H hides it in forms"),
  parent: v.optional(fieldId("For a frame: the tab it stands in; none: at the top")),
  insertAfter: insertAfter("The set of the same tab (or the top) it stands right after (::first: first); else where it is listed, a child's after its parent's"),
});

export const StructureSchema = v.strictObject({
  name: name("The structure name"),
  extends: v.optional(name("Parent structure: its fields, profile, lifecycle, icon and title fields are inherited unless given here; a field or set with the id of an inherited one changes its label, visibility or place")),
  title: label("The structure's title"),
  icon: v.optional(text("Icon: a file under the server Images directory")),
  lifecycle: v.optional(name("Lifecycle of its elements")),
  profile: v.optional(name("Profile of its elements; none: readable and writable by every account")),
  fieldAccess: v.optional(name("Field access whose layers widen the visibility of its fields for the accounts granted them")),
  titleField: v.optional(fieldId("Field whose value is the elements' title")),
  titleFields: list(fieldId("A title field"), "Fields whose values, joined by spaces in the structure's field order, make the elements' title"),
  fields: list(FieldSchema, "Fields, in order within their frame"),
  fieldSets: list(FieldSetSchema, "Frames and tabs grouping the fields, in order within their tab"),
});

export const ElementSchema = v.strictObject({
  structure: name("Structure of the element"),
  name: v.optional(v.pipe(v.string(), v.regex(LOGICAL_NAME_PATTERN, "a logical name: a letter, then letters, digits, _ . or -"), v.description("Logical name: identifies the element across imports and in docid values"))),
  owner: v.optional(login("Login of the owner (default: admin)")),
  profile: v.optional(name("The element's own profile, in place of its structure's and its states'")),
  values: v.optional(v.pipe(
    v.record(v.string(), v.unknown()),
    v.description('Values by field id: arrays take a list of rows, files {"file": "relative/path"}, docid a logical name'),
  )),
  content: list(
    v.pipe(v.string(), v.regex(LOGICAL_NAME_PATTERN, "a logical name: a letter, then letters, digits, _ . or -"), v.description("Logical name of an element")),
    "A folder's content (DIR and the structures extending it only): the elements it holds, by logical name, of the bundle or already stored",
  ),
});

const WeightSchema = v.optional(v.pipe(v.picklist(["A", "B", "C", "D"], "a weight is A, B, C or D"), v.description("Weight, A the highest (default D)")));

export const SearchConfigSchema = v.strictObject({
  structure: name("Structure indexed"),
  collection: v.optional(text("Collection restricting the elements indexed")),
  fields: list(v.strictObject({ field: fieldId("Field indexed"), weight: WeightSchema }), "Fields indexed"),
  files: list(v.strictObject({ field: fieldId("File field whose content is indexed"), weight: WeightSchema }), "File fields indexed"),
  callables: list(
    v.union([
      identifier("Name of a callable registered in code (createPlatform searchCallables), weight D"),
      v.strictObject({ name: identifier("Name of a callable registered in code (createPlatform searchCallables)"), weight: WeightSchema }),
    ], "a callable is a name or {name, weight}"),
    "Functions registered in code that return extra text to index",
  ),
});

export const SearchDomainSchema = v.strictObject({
  name: identifier("Domain name, as in /api/v2/fullsearch/domains/<name>/"),
  label: label("The domain's label"),
  lang: v.optional(text("Language of the content, e.g. en")),
  stem: v.optional(text("Stemming configuration, e.g. english")),
  configs: v.pipe(v.array(SearchConfigSchema), v.description("What is indexed")),
});

export const DashboardSchema = v.strictObject({
  slug: identifier("The platform's identifier (ref of /api/v2/dashboard/info)"),
  uuid: v.pipe(v.string(), v.uuid("a uuid is expected"), v.description("The dashboard's uuid on the Superset server")),
  roles: list(identifier("A role id"), "Roles that may view the dashboard"),
});

/** A whole bundle (bundle.md). Every section is optional. */
export const BundleSchema = v.pipe(
  v.strictObject({
    $schema: v.optional(text("The JSON Schema of the file, for editors")),
    accounts: v.optional(v.pipe(AccountsSchema, v.description("Roles, groups and users"))),
    enumerates: v.optional(EnumeratesSchema),
    profiles: list(ProfileSchema, "Access profiles"),
    fieldAccesses: list(FieldAccessSchema, "Field access layers, named by structures"),
    lifecycles: list(LifecycleSchema, "Lifecycles (workflows)"),
    structures: list(StructureSchema, "Smart Structures"),
    elements: list(ElementSchema, "Smart Elements"),
    searchDomains: list(SearchDomainSchema, "Full-text search domains"),
    dashboards: list(DashboardSchema, "Dashboards of the external dashboard server"),
  }),
  v.title("Lineage bundle"),
  v.description("Definitions and first Smart Elements the platform imports (docs/bundles.md)"),
);

export type Bundle = v.InferOutput<typeof BundleSchema>;
export type BundleRole = v.InferOutput<typeof RoleSchema>;
export type BundleGroup = v.InferOutput<typeof GroupSchema>;
export type BundleUser = v.InferOutput<typeof UserSchema>;
export type BundleEnumItem = v.InferOutput<typeof EnumItemSchema>;
export type BundleProfile = v.InferOutput<typeof ProfileSchema>;
export type BundleFieldAccess = v.InferOutput<typeof FieldAccessSchema>;
export type BundleLifecycle = v.InferOutput<typeof LifecycleSchema>;
export type BundleField = v.InferOutput<typeof FieldSchema>;
export type BundleFieldSet = v.InferOutput<typeof FieldSetSchema>;
export type BundleStructure = v.InferOutput<typeof StructureSchema>;
export type BundleElement = v.InferOutput<typeof ElementSchema>;
export type BundleSearchDomain = v.InferOutput<typeof SearchDomainSchema>;
export type BundleDashboard = v.InferOutput<typeof DashboardSchema>;

/** Named parts of the schema, emitted as $defs of the JSON Schema. */
export const BUNDLE_SCHEMA_DEFINITIONS = {
  Label: LabelSchema,
  Role: RoleSchema,
  Group: GroupSchema,
  User: UserSchema,
  EnumItem: EnumItemSchema,
  Profile: ProfileSchema,
  FieldAccess: FieldAccessSchema,
  FieldAccessLayer: FieldAccessLayerSchema,
  Lifecycle: LifecycleSchema,
  State: LifecycleStateSchema,
  Transition: TransitionSchema,
  TransitionParameter: TransitionParameterSchema,
  Field: FieldSchema,
  Column: ColumnSchema,
  FieldSet: FieldSetSchema,
  Structure: StructureSchema,
  Element: ElementSchema,
  SearchDomain: SearchDomainSchema,
  SearchConfig: SearchConfigSchema,
  Dashboard: DashboardSchema,
} as const;
