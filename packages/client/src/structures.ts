import { segment } from "./path-segment.ts";
import type { Transport } from "./transport.ts";

/** A field of a structure as the caller sees it, or a field set (type frame or tab) with its content (docs/elements.md, Reading a Smart Structure). */
export interface FieldDescription {
  readonly id: string;
  readonly label: string;
  readonly type: string;
  readonly logicalOrder: number;
  readonly multiple: boolean;
  readonly options: Readonly<Record<string, string>>;
  /** Absent on frames and tabs. */
  readonly needed?: boolean;
  readonly visibility: "W" | "R" | "H";
  readonly enum?: string;
  /** What a set holds: a tab its frames, a frame its fields, an array its columns. */
  readonly content?: Readonly<Record<string, FieldDescription>>;
  readonly [more: string]: unknown;
}

/** A Smart Structure: its properties and its fields by id, in order. */
export interface Structure {
  readonly uri: string;
  readonly properties: { readonly id: number; readonly title: string; readonly name: string; readonly icon: string; readonly [more: string]: unknown };
  readonly fields: Readonly<Record<string, FieldDescription>>;
  readonly etag: string | undefined;
}

/** A structure the caller may view, as the list of structures gives it. */
export interface StructureSummary {
  readonly name: string;
  readonly id: number;
  readonly uri: string;
  /** The structure it extends, by name; null when it extends none. */
  readonly parent: string | null;
  /** In the caller's language. */
  readonly title: string;
  readonly icon: string;
  /** Its elements the caller may view: alive, and in the trash. */
  readonly counts: { readonly alive: number; readonly deleted: number };
}

/** Smart Structures (docs/api.md, Smart Structures). */
export interface StructuresApi {
  /** GET /api/v2/smart-structures/: the structures the caller may view, by title. */
  list(options?: { readonly signal?: AbortSignal }): Promise<StructureSummary[]>;
  /** GET /api/v2/smart-structures/<name>: its properties and fields as the caller sees them. */
  read(name: string, options?: { readonly signal?: AbortSignal }): Promise<Structure>;
}

/** The structures area over a transport. */
export function structuresApi(transport: Transport): StructuresApi {
  return {
    async list(options = {}) {
      const { data } = await transport.json<{ structures: StructureSummary[] }>({ method: "GET", path: "/api/v2/smart-structures/", signal: options.signal });
      return data.structures;
    },
    async read(name, options = {}) {
      const { data, etag } = await transport.json<{ document: { uri: string; properties: Structure["properties"] }; family: { structure: Structure["fields"] } }>({
        method: "GET", path: `/api/v2/smart-structures/${segment(name)}`, signal: options.signal,
      });
      return { uri: data.document.uri, properties: data.document.properties, fields: data.family.structure, etag };
    },
  };
}
