import { segment } from "./path-segment.ts";
import type { Transport } from "./transport.ts";

/** An item of an enumerate. */
export interface EnumItem<Key extends string = string> {
  readonly key: Key;
  readonly label: string;
  readonly originalLabel: string;
  readonly parentkey: string | null;
  readonly path: string;
  readonly longLabel?: string;
}

/** How the items are chosen and ordered: `keyword` in their labels (`contains` by default, or `startswith`). */
export interface EnumOptions {
  readonly keyword?: string;
  readonly operator?: "contains" | "startswith";
  readonly orderBy?: "none" | "key" | "label";
  readonly signal?: AbortSignal;
}

/** Enumerates (docs/api.md, Enumerates). */
export interface EnumeratesApi {
  /** GET /api/v2/enumerates/<name>: the items of an enumerate. */
  read<Key extends string = string>(name: string, options?: EnumOptions): Promise<EnumItem<Key>[]>;
  /** GET /api/v2/smart-structures/<structure>/enumerates/<field>: the items an enum field takes. */
  ofField<Key extends string = string>(structure: string, field: string, options?: EnumOptions): Promise<EnumItem<Key>[]>;
}

/** The enumerates area over a transport. */
export function enumeratesApi(transport: Transport): EnumeratesApi {
  const items = async (path: string, options: EnumOptions) => {
    const { data } = await transport.json<{ enumItems: EnumItem[] }>({
      method: "GET", path, query: { keyword: options.keyword, operator: options.operator, orderBy: options.orderBy }, signal: options.signal,
    });
    return data.enumItems as never;
  };
  return {
    read: (name, options = {}) => items(`/api/v2/enumerates/${segment(name)}`, options),
    ofField: (structure, field, options = {}) => items(`/api/v2/smart-structures/${segment(structure)}/enumerates/${segment(field)}`, options),
  };
}
