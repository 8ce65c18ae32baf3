import * as v from "valibot";

const ValueSchema = v.object({ value: v.pipe(v.unknown(), v.description("The new value; null empties the field")) });

/** One Smart Field of a PUT: `{value}`, a list of `{value}` (multiple or array column), or a list of lists (multiple column). */
export const AttributeInputSchema = v.union([ValueSchema, v.array(ValueSchema), v.array(v.array(ValueSchema))]);

/** The JSON body of PUT /api/v2/smart-elements/<docid> (api-v2.md, PUT body); other data is ignored. */
export const PutJsonBodySchema = v.object({
  document: v.object({
    attributes: v.pipe(
      v.record(v.string(), AttributeInputSchema),
      v.description("New values by Smart Field id. No attributes object: 400 ROUTES0106; an item without value: 400 ROUTES0108."),
    ),
  }),
});

/** The form body of the same PUT: one variable per Smart Field (name case-insensitive), `name[]` or repeated for lists, files in multipart. */
export const PutFormBodySchema = v.pipe(
  v.record(v.string(), v.union([v.string(), v.array(v.string())])),
  v.description("One variable per Smart Field, its name case-insensitive; repeat it or use name[] for a list; multipart/form-data for files."),
);
