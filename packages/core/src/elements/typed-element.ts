import type { ElementList, ElementReading } from "./read-elements.ts";
import type { DocumentView } from "./element-view.ts";

/**
 * A Smart Structure known at compile time, as `lineage types` writes it (docs/client.md): its values
 * as read, as a create takes them, its file fields, its states and transitions. The elements façade
 * takes one as a type parameter: `platform.elements.read<Article>(principal, "ART_HELLO")`.
 */
export interface StructureType {
  readonly structure: string;
  readonly values: object;
  readonly input: object;
  readonly files: string;
  readonly state: string;
  readonly transition: string;
}

/** A served value of a known type: `value` typed, its text for a person, and what the type adds (URLs, targets). */
export interface TypedAttributeValue<V> {
  value: V;
  displayValue: string | null;
  [extra: string]: unknown;
}

type AttributeOf<V> = [V] extends [readonly (infer Item)[]] ? AttributeOf<Item>[] : TypedAttributeValue<V>;

/** The attributes of an element of a known structure: each field's served value, a list for a multiple field, per row for a column. */
export type TypedAttributes<S extends StructureType> = { [K in keyof S["values"]]: AttributeOf<S["values"][K]> };

/** A document of a known structure: its attributes typed (only those `fields` asked for). */
export interface TypedDocumentView<S extends StructureType> extends Omit<DocumentView, "attributes"> {
  attributes?: Partial<TypedAttributes<S>>;
}

/** A reading of one element of a known structure. */
export interface TypedElementReading<S extends StructureType> extends Omit<ElementReading, "data"> {
  readonly data: Omit<ElementReading["data"], "document"> & { document: TypedDocumentView<S> };
}

/** The values of a create of a known structure (needed fields required), or any values. */
export type CreateValuesOf<S extends StructureType | undefined> = S extends StructureType ? S["input"] : Readonly<Record<string, unknown>>;

/** The values of an update of a known structure (any of them), or any values. */
export type UpdateValuesOf<S extends StructureType | undefined> = S extends StructureType ? Partial<S["input"]> : Readonly<Record<string, unknown>>;

/** What a read answers: typed for a known structure. */
export type ReadingOf<S extends StructureType | undefined> = S extends StructureType ? TypedElementReading<S> : ElementReading;

/**
 * A list (of a collection, a folder's content, a saved search's results) whose elements are of a known
 * structure: each document's attributes typed (those `fields` asked for); any list without one.
 */
export type ListOf<S extends StructureType | undefined, L extends ElementList = ElementList> =
  S extends StructureType ? Omit<L, "documents"> & { documents: TypedDocumentView<S>[] } : L;
