import * as v from "valibot";
import { FILTER_OPERATORS } from "./element-filter.ts";
import { ListQuerySchema } from "../elements/list-query.schema.ts";

// The `filter` a client sends: the original's grid filter, a condition or a group of them.
// parse-filter.ts checks it against this, then against the list's fields.

/** The most levels of groups a filter nests, and the most conditions it holds in all. */
export const FILTER_LIMITS = { depth: 8, conditions: 64, values: 1000 } as const;

/** One condition: a field or property, an operator, a value (none for isempty/isnotempty, a list for in). */
export const FilterConditionSchema = v.object({
  field: v.pipe(v.string(), v.minLength(1), v.description("A Smart Field id, or a property: title, name, initid, state, owner, cdate, mdate, revision, fromname.")),
  operator: v.pipe(v.picklist(FILTER_OPERATORS), v.description("How the field's value is compared with `value`.")),
  value: v.optional(v.unknown()),
});
export type FilterConditionInput = v.InferOutput<typeof FilterConditionSchema>;

/** A group: conditions and groups joined by `and` or `or`. */
export interface FilterGroupInput {
  readonly logic: "and" | "or";
  readonly filters: readonly FilterInput[];
}
export type FilterInput = FilterConditionInput | FilterGroupInput;

export const FilterGroupSchema: v.GenericSchema<FilterGroupInput> = v.object({
  logic: v.pipe(v.picklist(["and", "or"]), v.description("How the group's filters are joined.")),
  filters: v.array(v.lazy(() => FilterSchema)),
});

/** A filter: a condition or a group. */
export const FilterSchema: v.GenericSchema<FilterInput> = v.union([FilterGroupSchema, FilterConditionSchema]);

/** The `filter` query variable: the filter as JSON. */
export const FilterParameterSchema = v.pipe(
  v.string(),
  v.description(
    'A filter as JSON: {"field","operator","value"} or {"logic":"and"|"or","filters":[...]} (at most 8 levels, 64 conditions). ' +
      "Bad shape: 400 FILTER0001; unknown field: FILTER0002; operator not for the type: FILTER0003; bad value: FILTER0004.",
  ),
  v.examples(['{"field":"state","operator":"eq","value":"review"}']),
);

/** `count=1`: the answer says how many elements match (`requestParameters.total`). */
export const CountParameterSchema = v.pipe(
  v.picklist(["0", "1", "true", "false"]),
  v.description("1 or true: requestParameters.total holds how many elements match for the caller."),
);

/** The query variables of a list that takes a filter: the list's, `filter` and `count`. */
export const FilteredListQuerySchema = v.object({
  ...ListQuerySchema.entries,
  filter: v.optional(FilterParameterSchema),
  count: v.optional(CountParameterSchema),
});
