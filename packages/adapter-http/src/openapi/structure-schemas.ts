import { structureValueTypes, type Enumerate, type FieldValueType, type SmartStructure, type ValueItemType } from "@lineage/core";

type Json = Record<string, unknown>;

/** What the per-structure schemas are made from: the definitions a store serves (inheritance resolved). */
export interface StructureSchemaSource {
  structures(): readonly SmartStructure[];
  enumerate(name: string): Enumerate | undefined;
  /** The names of a structure and of every structure that extends it. */
  withDescendants(name: string): readonly string[];
}

/** The element routes copied once per structure, its name in place of `{family}`, their answers' attributes typed by it. */
const COLLECTION_PATHS = ["/api/v2/smart-structures/{family}/smart-elements", "/api/v2/smart-structures/{family}/smart-elements/{docid}"];
/** The shared schemas whose `attributes` a structure's schema types. */
const ELEMENT_SCHEMAS = ["Document", "ElementItem"];

/** `Attributes.ARTICLE`: the component of a structure's attributes (component names allow letters, digits, `.`, `-`, `_`). */
export function attributesSchemaName(structure: string): string {
  return `Attributes.${structure.replace(/[^A-Za-z0-9._-]/g, "_")}`;
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

function itemSchema(item: ValueItemType): Json {
  switch (item.kind) {
    case "text": return { type: "string" };
    case "number": return { type: "number" };
    case "enum": return { type: "string", enum: item.keys };
    case "null": return { type: "null" };
  }
}

function nullable(item: ValueItemType): Json {
  if (item.kind === "null") return itemSchema(item);
  if (item.kind === "enum") return { enum: [...item.keys, null] };
  return { type: [itemSchema(item).type, "null"] };
}

/** One served value: `value` of the field's type, its text for a person, and what the type adds (URLs, targets). */
const served = (value: Json): Json => ({
  type: "object",
  properties: { value, displayValue: { type: ["string", "null"] } },
  required: ["value", "displayValue"],
});

/** A field's attribute as the API answers it, from the same model as `lineage types` (structureValueTypes). */
function attributeSchema(type: FieldValueType): Json {
  const traits = [type.field.type + (type.item.kind === "enum" ? ` ${type.item.enumerate}` : ""), type.multiple ? "multiple" : "", type.column ? "array column" : "", type.neverNull ? "needed" : ""];
  const description = traits.filter(Boolean).join(", ");
  if (type.column && type.multiple) return { description, type: "array", items: { type: "array", items: served(itemSchema(type.item)) } };
  if (type.column) return { description, type: "array", items: served(nullable(type.item)) };
  if (type.multiple) return { description, type: "array", items: served(itemSchema(type.item)) };
  return { description, ...served(type.neverNull ? itemSchema(type.item) : nullable(type.item)) };
}

/** The schema of a structure's attributes: its fields (inherited ones included), no other. */
function structureAttributes(structure: SmartStructure, source: StructureSchemaSource): Json {
  const types = structureValueTypes(structure, (name) => source.enumerate(name));
  return {
    type: "object",
    description: `Smart Field values of an element of ${structure.name}${structure.ancestors?.length ? ` (extends ${structure.ancestors.join(" < ")})` : ""}; only those \`fields\` asks for, those the reader may see`,
    properties: Object.fromEntries(types.map((type) => [type.field.id, attributeSchema(type)])),
    additionalProperties: false,
  };
}

/** `{ attributes: … }` of an element of `structure` or of a structure extending it. */
function attributesIn(structure: string, source: StructureSchemaSource): Json {
  const names = source.withDescendants(structure).map(attributesSchemaName);
  return { properties: { attributes: names.length === 1 ? ref(names[0]!) : { anyOf: names.map(ref) } } };
}

/** `Document` or `ElementItem` with its attributes held to `structure`'s. */
const elementOf = (schema: string, structure: string, source: StructureSchemaSource): Json => ({ allOf: [ref(schema), attributesIn(structure, source)] });

/** Replaces, anywhere in `json`, a reference to Document or ElementItem by `replace(name)`. */
function replaceElementRefs(json: unknown, replace: (name: string) => Json): unknown {
  if (Array.isArray(json)) return json.map((item) => replaceElementRefs(item, replace));
  if (!json || typeof json !== "object") return json;
  const target = (json as Json).$ref;
  const name = typeof target === "string" ? ELEMENT_SCHEMAS.find((schema) => target === `#/components/schemas/${schema}`) : undefined;
  if (name && Object.keys(json).length === 1) return replace(name);
  return Object.fromEntries(Object.entries(json).map(([key, value]) => [key, replaceElementRefs(value, replace)]));
}

/** A segment of a JSON pointer in a URI fragment (`{` and `}` are no URI characters). */
const pointerSegment = (segment: string) => encodeURIComponent(segment.replace(/~/g, "~0").replace(/\//g, "~1"));

/**
 * An operation of a structure's collection, for one structure: no `family` parameter, its own id, its
 * elements typed; its refusals are the `{family}` operation's (a reference each, so that the document
 * does not grow by a copy of every error per structure).
 */
function operationFor(operation: Json, at: string, structure: string, source: StructureSchemaSource): Json {
  const parameters = (operation.parameters as Json[] | undefined)?.filter((parameter) => !(parameter.in === "path" && parameter.name === "family"));
  const responses = Object.fromEntries(Object.entries(operation.responses as Record<string, Json>).map(([status, response]) => [
    status,
    Number(status) >= 400 ? { $ref: `${at}/responses/${pointerSegment(status)}` } : replaceElementRefs(response, (name) => elementOf(name, structure, source)),
  ]));
  return {
    ...operation,
    operationId: `${String(operation.operationId)}_${structure.replace(/[^A-Za-z0-9_]/g, "_")}`,
    ...(parameters ? { parameters } : {}),
    responses,
  };
}

/**
 * The OpenAPI document of a live store: `document` (made from the routes) with one schema per structure
 * (`Attributes.ARTICLE`: each field's value typed as `lineage types` types it), an element whose
 * `properties.family.name` names its structure held to that structure's schema wherever an element is
 * answered, and the element routes of each structure's collection (`/smart-structures/ARTICLE/smart-elements/{docid}`)
 * answering elements typed by it (or by a structure extending it).
 */
export function withStructureSchemas(document: Json, source: StructureSchemaSource): Json {
  const components = document.components as Json & { schemas: Record<string, Json> };
  const structures = [...source.structures()].sort((a, b) => a.name.localeCompare(b.name));
  const schemas: Record<string, Json> = { ...components.schemas };
  for (const structure of structures) schemas[attributesSchemaName(structure.name)] = structureAttributes(structure, source);
  // An element naming its structure (document.properties.family, or all properties) is held to it.
  for (const name of ELEMENT_SCHEMAS) {
    const base = components.schemas[name];
    if (!base || structures.length === 0) continue;
    schemas[name] = {
      ...base,
      allOf: structures.map((structure) => ({
        if: { properties: { properties: { properties: { family: { properties: { name: { const: structure.name } }, required: ["name"] } }, required: ["family"] } }, required: ["properties"] },
        then: { properties: { attributes: ref(attributesSchemaName(structure.name)) } },
      })),
    };
  }
  const paths: Record<string, Json> = {};
  for (const [template, item] of Object.entries(document.paths as Record<string, Json>)) {
    paths[template] = item;
    if (!COLLECTION_PATHS.includes(template)) continue;
    for (const structure of structures) {
      const path = template.replace("{family}", structure.name);
      paths[path] = Object.fromEntries(Object.entries(item).map(([method, operation]) =>
        [method, operationFor(operation as Json, `#/paths/${pointerSegment(template)}/${method}`, structure.name, source)]));
    }
  }
  return { ...document, paths, components: { ...components, schemas } };
}
