DROP INDEX "element_sort_keys_idx";--> statement-breakpoint
DROP INDEX "element_sort_keys_desc_idx";--> statement-breakpoint
ALTER TABLE "element_sort_keys" ADD COLUMN "profile" text;--> statement-breakpoint
CREATE INDEX "elements_profile_idx" ON "elements" USING btree ("profile") WHERE not fixed and profile is not null;--> statement-breakpoint
CREATE INDEX "element_sort_keys_idx" ON "element_sort_keys" USING btree ("structure" collate "C","field","status","rank","num","txt" collate "C","element_id" desc,"profile");--> statement-breakpoint
CREATE INDEX "element_sort_keys_desc_idx" ON "element_sort_keys" USING btree ("structure" collate "C","field","status","rank" desc,"num" desc,"txt" collate "C" desc,"element_id" desc,"profile");--> statement-breakpoint
-- Written by hand after drizzle-kit's statements (the schema has no word for functions and triggers).
-- The sort keys carry their element's profile, so that a field order filters rights on the index entries.
UPDATE "element_sort_keys" SET "profile" = "elements"."profile" FROM "elements"
WHERE "elements"."id" = "element_sort_keys"."element_id" AND "elements"."profile" IS NOT NULL;--> statement-breakpoint
CREATE OR REPLACE FUNCTION lineage_element_sort_keys() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    DELETE FROM element_sort_keys WHERE element_id = OLD.id;
  END IF;
  IF TG_OP <> 'DELETE' AND NOT NEW.fixed THEN
    INSERT INTO element_sort_keys (element_id, structure, field, status, rank, num, txt, profile)
    SELECT NEW.id, NEW.structure, f.field, NEW.status, k.rank, k.num, k.txt, NEW.profile
    FROM structures s CROSS JOIN unnest(s.sort_fields) AS f(field) CROSS JOIN LATERAL lineage_sort_key(NEW."values", f.field) AS k
    WHERE s.name = NEW.structure;
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
DROP TRIGGER elements_sort_keys ON elements;--> statement-breakpoint
CREATE TRIGGER elements_sort_keys AFTER INSERT OR DELETE OR UPDATE OF structure, status, fixed, "values", profile ON elements
FOR EACH ROW EXECUTE FUNCTION lineage_element_sort_keys();
--> statement-breakpoint
-- The planner's estimate of the rights condition on the sort keys, as on elements (0005).
CREATE STATISTICS "element_sort_keys_readable_stats" ON (coalesce('p:' || profile, 's:' || structure)) FROM "element_sort_keys";
