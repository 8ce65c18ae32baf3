import * as v from "valibot";

export const ENUM_OPERATORS = ["startswith", "contains"] as const;
export type EnumOperator = (typeof ENUM_OPERATORS)[number];
export const ENUM_ORDERS = ["none", "key", "label"] as const;
export type EnumOrder = (typeof ENUM_ORDERS)[number];

/** The query variables of both Enumerates routes (api-v2.md, Enumerates); values are case-sensitive. */
export const EnumerateQuerySchema = v.object({
  operator: v.optional(
    v.pipe(v.picklist(ENUM_OPERATORS), v.description("startswith: the label starts with keyword; contains: the label contains it. Else 400 CRUD0402.")),
    "contains",
  ),
  keyword: v.optional(v.pipe(v.string(), v.description("Searched term, in the label of the user's locale (case and accents ignored)")), ""),
  orderBy: v.optional(
    v.pipe(v.picklist(ENUM_ORDERS), v.description("none: order of the definition; key or label: alphabetical (natural order for keys). Else 400 CRUD0403.")),
    "none",
  ),
});
