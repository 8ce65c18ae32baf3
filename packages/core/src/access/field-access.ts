/** What a layer grants on a field: R read, W read and write (the original's Read and ReadWrite). */
export const LAYER_ACCESSES = ["R", "W"] as const;
export type LayerAccess = (typeof LAYER_ACCESSES)[number];

/** One layer: the accounts it is granted to (`role:ID`, `group:ID` or `user:LOGIN`) and what it grants on which fields. */
export interface FieldAccessLayer {
  readonly grant: string;
  readonly fields: Readonly<Record<string, LayerAccess>>;
}

/**
 * A field access (the original's field access layer list, bundle `fieldAccesses`): layers that
 * widen the visibility of fields for the accounts they are granted to, on the structures that name
 * it (`fieldAccess`). See field-visibility.ts for how layers combine.
 */
export interface FieldAccess {
  readonly name: string;
  readonly layers: readonly FieldAccessLayer[];
}
