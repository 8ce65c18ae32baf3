/**
 * What the client knows of a Smart Structure at compile time. `lineage types` writes one such
 * interface per structure (docs/client.md); the client's methods take it as a type parameter:
 * `client.elements.read<Article>("ART_HELLO")`. Without one, values are loosely typed records.
 */
export interface StructureType {
  /** The structure's name (`ARTICLE`). */
  readonly structure: string;
  /** Its values as the API reads them: every field the reader may see, null or [] when empty. */
  readonly values: object;
  /** Its values as a create takes them: needed fields required, the others optional. */
  readonly input: object;
  /** Ids of its file and image fields, which also take a Blob (sent as multipart). */
  readonly files: string;
  /** Ids of its lifecycle's states (`never` without a lifecycle). */
  readonly state: string;
  /** Ids of its lifecycle's transitions (`never` without a lifecycle). */
  readonly transition: string;
}

/** Any structure: what a method assumes when no structure type is given. */
export interface AnyStructure extends StructureType {
  readonly structure: string;
  readonly values: Record<string, unknown>;
  readonly input: Record<string, unknown>;
  readonly files: string;
  readonly state: string;
  readonly transition: string;
}

/** A value a file or image field takes: a stored reference (`mime|id|name`), or new bytes to upload. */
type WithUpload<V> = V extends readonly (infer Item)[] ? readonly WithUpload<Item>[] : V | Blob;

/** The values of a create: a file field also takes a Blob (or a list of them, for a multiple one). */
export type CreateValues<S extends StructureType> = {
  [K in keyof S["input"]]: K extends S["files"] ? WithUpload<S["input"][K]> : S["input"][K];
};

/** The values of an update: any of the create's, none required. */
export type UpdateValues<S extends StructureType> = Partial<CreateValues<S>>;

/** The values an element was read with (with `fields`, only those asked for). */
export type ReadValues<S extends StructureType> = S["values"];

/** What a reader is shown of each value (`displayValue`): text, a list for a multiple field, per row for an array column. */
export type DisplayValues<S extends StructureType> = {
  [K in keyof S["values"]]: DisplayOf<S["values"][K]>;
};
type DisplayOf<V> = [V] extends [readonly (infer Item)[]] ? DisplayOf<Item>[] : string | null;
