import type { AnyStructure, DisplayValues, StructureType } from "./structure-type.ts";

/** An element's lifecycle state as the API shows it in its properties. */
export interface ElementState<State extends string = string> {
  readonly reference: State;
  readonly stateLabel?: string;
  readonly displayValue?: string;
  readonly color?: string;
  readonly activity?: string | null;
}

/** An element's properties (docs/api.md): those asked for (`fields`); id, title, initid and name by default. */
export interface ElementProperties<S extends StructureType = AnyStructure> {
  readonly id: number;
  readonly initid: number;
  readonly title: string;
  readonly name: string | null;
  readonly icon?: string;
  readonly revision?: number;
  readonly status?: "alive" | "deleted" | "fixed";
  /** Absent for an element of a structure without lifecycle. */
  readonly state?: ElementState<S["state"]>;
  readonly [property: string]: unknown;
}

/** A Smart Element as the client gives it: flat values, their display texts, and the API's own attributes. */
export interface Element<S extends StructureType = AnyStructure> {
  readonly uri: string;
  readonly properties: ElementProperties<S>;
  /** The values: `element.values.ar_title`. Only the fields the answer holds (a list's items: those of `fields`). */
  readonly values: S["values"];
  /** What a reader is shown of each value (`displayValue`). */
  readonly display: DisplayValues<S>;
  /** The attributes as the API answers them, with what values carry besides (file URLs, docid targets…). */
  readonly attributes: Readonly<Record<string, unknown>>;
  /** The ETag of the answer that carried it (reads and writes of one element), for `ifMatch`. */
  readonly etag: string | undefined;
}

/** An element of a list: its values are those the list's `fields` asked for. */
export interface ListedElement<S extends StructureType = AnyStructure> extends Omit<Element<S>, "values" | "display"> {
  readonly values: Partial<S["values"]>;
  readonly display: Partial<DisplayValues<S>>;
}

/** A document as the API answers it. */
export interface DocumentAnswer {
  readonly uri: string;
  readonly properties?: Record<string, unknown>;
  readonly attributes?: Record<string, unknown>;
}

/** The flat element of a document of the API. */
export function elementOf<S extends StructureType>(document: DocumentAnswer, etag?: string): Element<S> {
  const attributes = document.attributes ?? {};
  const values: Record<string, unknown> = {};
  const display: Record<string, unknown> = {};
  for (const [id, attribute] of Object.entries(attributes)) {
    values[id] = pick(attribute, "value");
    display[id] = pick(attribute, "displayValue");
  }
  return {
    uri: document.uri,
    properties: (document.properties ?? {}) as unknown as ElementProperties<S>,
    values: values as S["values"],
    display: display as DisplayValues<S>,
    attributes,
    etag,
  };
}

/** One key of an attribute: of its value, of each item of a list, of each item of each row. */
function pick(attribute: unknown, key: "value" | "displayValue"): unknown {
  if (Array.isArray(attribute)) return attribute.map((item) => pick(item, key));
  if (attribute && typeof attribute === "object") return (attribute as Record<string, unknown>)[key] ?? null;
  return null;
}
