DROP INDEX "element_sort_keys_idx";--> statement-breakpoint
DROP INDEX "element_sort_keys_desc_idx";--> statement-breakpoint
DROP INDEX "elements_by_id_idx";--> statement-breakpoint
DROP INDEX "elements_by_structure_idx";--> statement-breakpoint
DROP INDEX "elements_by_structure_desc_idx";--> statement-breakpoint
ALTER TABLE "element_sort_keys" ADD COLUMN "owner" integer;--> statement-breakpoint
-- Written by hand among drizzle-kit's statements: the sort keys carry their element's owner too, so that a field
-- order filters the owner grant on the index entries; filled before the indexes are made again.
UPDATE "element_sort_keys" SET "owner" = "elements"."owner" FROM "elements" WHERE "elements"."id" = "element_sort_keys"."element_id";--> statement-breakpoint
CREATE INDEX "element_sort_keys_idx" ON "element_sort_keys" USING btree ("structure" collate "C","field","status","rank","num","txt" collate "C","element_id" desc,"profile","owner");--> statement-breakpoint
CREATE INDEX "element_sort_keys_desc_idx" ON "element_sort_keys" USING btree ("structure" collate "C","field","status","rank" desc,"num" desc,"txt" collate "C" desc,"element_id" desc,"profile","owner");--> statement-breakpoint
CREATE INDEX "elements_by_id_idx" ON "elements" USING btree ("status","id" desc,structure collate "C","profile","owner") WHERE not fixed;--> statement-breakpoint
CREATE INDEX "elements_by_structure_idx" ON "elements" USING btree ("status",structure collate "C","id" desc,"profile","owner") WHERE not fixed;--> statement-breakpoint
CREATE INDEX "elements_by_structure_desc_idx" ON "elements" USING btree ("status","structure" collate "C" desc,"id" desc,"profile","owner") WHERE not fixed;--> statement-breakpoint
CREATE OR REPLACE FUNCTION lineage_element_sort_keys() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    DELETE FROM element_sort_keys WHERE element_id = OLD.id;
  END IF;
  IF TG_OP <> 'DELETE' AND NOT NEW.fixed THEN
    INSERT INTO element_sort_keys (element_id, structure, field, status, rank, num, txt, profile, owner)
    SELECT NEW.id, NEW.structure, f.field, NEW.status, k.rank, k.num, k.txt, NEW.profile, NEW.owner
    FROM structures s CROSS JOIN unnest(s.sort_fields) AS f(field) CROSS JOIN LATERAL lineage_sort_key(NEW."values", f.field) AS k
    WHERE s.name = NEW.structure;
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
DROP TRIGGER elements_sort_keys ON elements;--> statement-breakpoint
CREATE TRIGGER elements_sort_keys AFTER INSERT OR DELETE OR UPDATE OF structure, status, fixed, "values", profile, owner ON elements
FOR EACH ROW EXECUTE FUNCTION lineage_element_sort_keys();
