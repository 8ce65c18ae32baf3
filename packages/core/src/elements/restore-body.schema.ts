import * as v from "valibot";

/** The body of PUT /api/v2/trash/<docid>: the only change the trash accepts is back to alive. */
export const RestoreBodySchema = v.pipe(
  v.object({
    document: v.object({ properties: v.object({ status: v.pipe(v.literal("alive"), v.description("alive restores the lineage")) }) }),
  }),
  v.description('Exactly {"document":{"properties":{"status":"alive"}}}; anything else: 400 CRUD0236'),
);
