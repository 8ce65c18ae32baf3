-- Written by hand (the schema has no word for triggers): the sort keys carry their element's state too, so that a
-- field order tests a condition on the state on the index entries it walks, the elements' rows unread (list-statement.ts),
-- and walks one state's entries alone when the condition is an equality.
DROP INDEX "element_sort_keys_idx";--> statement-breakpoint
DROP INDEX "element_sort_keys_desc_idx";--> statement-breakpoint
ALTER TABLE "element_sort_keys" ADD COLUMN "state" text;--> statement-breakpoint
UPDATE "element_sort_keys" SET "state" = "elements"."state" FROM "elements"
WHERE "elements"."id" = "element_sort_keys"."element_id" AND "elements"."state" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "element_sort_keys_idx" ON "element_sort_keys" USING btree ("structure" collate "C","field","status","rank","num","txt" collate "C","element_id" desc,"profile","owner","state" collate "C");--> statement-breakpoint
CREATE INDEX "element_sort_keys_desc_idx" ON "element_sort_keys" USING btree ("structure" collate "C","field","status","rank" desc,"num" desc,"txt" collate "C" desc,"element_id" desc,"profile","owner","state" collate "C");--> statement-breakpoint
-- A field order of the elements in one state: the state's entries, in the field's order, one range of these (a filter that
-- keeps few elements of a state is read from here as well, rather than sorted from the elements' index of states).
CREATE INDEX "element_sort_keys_state_idx" ON "element_sort_keys" USING btree ("structure" collate "C","field","status","state" collate "C","rank","num","txt" collate "C","element_id" desc,"profile","owner");--> statement-breakpoint
CREATE INDEX "element_sort_keys_state_desc_idx" ON "element_sort_keys" USING btree ("structure" collate "C","field","status","state" collate "C","rank" desc,"num" desc,"txt" collate "C" desc,"element_id" desc,"profile","owner");--> statement-breakpoint
CREATE OR REPLACE FUNCTION lineage_element_sort_keys() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    DELETE FROM element_sort_keys WHERE element_id = OLD.id;
  END IF;
  IF TG_OP <> 'DELETE' AND NOT NEW.fixed THEN
    INSERT INTO element_sort_keys (element_id, structure, field, status, rank, num, txt, profile, owner, state)
    SELECT NEW.id, NEW.structure, f.field, NEW.status, k.rank, k.num, k.txt, NEW.profile, NEW.owner, NEW.state
    FROM structures s CROSS JOIN unnest(s.sort_fields) AS f(field) CROSS JOIN LATERAL lineage_sort_key(NEW."values", f.field) AS k
    WHERE s.name = NEW.structure;
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
DROP TRIGGER elements_sort_keys ON elements;--> statement-breakpoint
CREATE TRIGGER elements_sort_keys AFTER INSERT OR DELETE OR UPDATE OF structure, status, fixed, "values", profile, owner, state ON elements
FOR EACH ROW EXECUTE FUNCTION lineage_element_sort_keys();--> statement-breakpoint
ANALYZE "element_sort_keys";
