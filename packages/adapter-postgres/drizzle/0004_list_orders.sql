CREATE TABLE "element_sort_keys" (
	"element_id" integer NOT NULL,
	"structure" text NOT NULL,
	"field" text NOT NULL,
	"status" text NOT NULL,
	"rank" smallint NOT NULL,
	"num" numeric,
	"txt" text,
	CONSTRAINT "element_sort_keys_element_id_field_pk" PRIMARY KEY("element_id","field")
);
--> statement-breakpoint
DROP INDEX "elements_list_idx";--> statement-breakpoint
DROP INDEX "elements_structure_list_idx";--> statement-breakpoint
ALTER TABLE "elements" ADD COLUMN "structure_id" integer;--> statement-breakpoint
ALTER TABLE "structures" ADD COLUMN "sort_fields" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
CREATE INDEX "element_sort_keys_idx" ON "element_sort_keys" USING btree ("structure" collate "C","field","status","rank","num","txt" collate "C","element_id" desc);--> statement-breakpoint
CREATE INDEX "element_sort_keys_desc_idx" ON "element_sort_keys" USING btree ("structure" collate "C","field","status","rank" desc,"num" desc,"txt" collate "C" desc,"element_id" desc);--> statement-breakpoint
CREATE INDEX "elements_by_id_idx" ON "elements" USING btree ("status","id" desc,structure collate "C") WHERE not fixed;--> statement-breakpoint
CREATE INDEX "elements_by_initid_idx" ON "elements" USING btree ("status","initid","id",structure collate "C","owner","state","revision","name") WHERE not fixed;--> statement-breakpoint
CREATE INDEX "elements_by_structure_idx" ON "elements" USING btree ("status",structure collate "C","id" desc) WHERE not fixed;--> statement-breakpoint
CREATE INDEX "elements_by_structure_desc_idx" ON "elements" USING btree ("status","structure" collate "C" desc,"id" desc) WHERE not fixed;--> statement-breakpoint
CREATE INDEX "elements_structure_by_initid_idx" ON "elements" USING btree ("status",structure collate "C","initid","id","owner","state","revision","name") WHERE not fixed;--> statement-breakpoint
CREATE INDEX "elements_by_title_idx" ON "elements" USING btree ("status","title" collate "C" asc,"id" desc,structure collate "C","owner","state","revision","name") WHERE not fixed;--> statement-breakpoint
CREATE INDEX "elements_by_title_desc_idx" ON "elements" USING btree ("status","title" collate "C" desc,"id" desc,structure collate "C","owner","state","revision","name") WHERE not fixed;--> statement-breakpoint
CREATE INDEX "elements_structure_by_title_idx" ON "elements" USING btree ("status",structure collate "C","title" collate "C" asc,"id" desc,"owner","state","revision","name") WHERE not fixed;--> statement-breakpoint
CREATE INDEX "elements_structure_by_title_desc_idx" ON "elements" USING btree ("status",structure collate "C","title" collate "C" desc,"id" desc,"owner","state","revision","name") WHERE not fixed;--> statement-breakpoint
CREATE INDEX "elements_by_name_idx" ON "elements" USING btree ("status","name" collate "C" asc nulls first,"id" desc,structure collate "C","owner","state","revision") WHERE not fixed;--> statement-breakpoint
CREATE INDEX "elements_by_name_desc_idx" ON "elements" USING btree ("status","name" collate "C" desc nulls last,"id" desc,structure collate "C","owner","state","revision") WHERE not fixed;--> statement-breakpoint
CREATE INDEX "elements_structure_by_name_idx" ON "elements" USING btree ("status",structure collate "C","name" collate "C" asc nulls first,"id" desc,"owner","state","revision") WHERE not fixed;--> statement-breakpoint
CREATE INDEX "elements_structure_by_name_desc_idx" ON "elements" USING btree ("status",structure collate "C","name" collate "C" desc nulls last,"id" desc,"owner","state","revision") WHERE not fixed;--> statement-breakpoint
CREATE INDEX "elements_by_revision_idx" ON "elements" USING btree ("status","revision" asc,"id" desc,structure collate "C","owner","state","name") WHERE not fixed;--> statement-breakpoint
CREATE INDEX "elements_by_revision_desc_idx" ON "elements" USING btree ("status","revision" desc,"id" desc,structure collate "C","owner","state","name") WHERE not fixed;--> statement-breakpoint
CREATE INDEX "elements_structure_by_revision_idx" ON "elements" USING btree ("status",structure collate "C","revision" asc,"id" desc,"owner","state","name") WHERE not fixed;--> statement-breakpoint
CREATE INDEX "elements_structure_by_revision_desc_idx" ON "elements" USING btree ("status",structure collate "C","revision" desc,"id" desc,"owner","state","name") WHERE not fixed;--> statement-breakpoint
CREATE INDEX "elements_by_owner_idx" ON "elements" USING btree ("status","owner" asc,"id" desc,structure collate "C","state","revision","name") WHERE not fixed;--> statement-breakpoint
CREATE INDEX "elements_by_owner_desc_idx" ON "elements" USING btree ("status","owner" desc,"id" desc,structure collate "C","state","revision","name") WHERE not fixed;--> statement-breakpoint
CREATE INDEX "elements_structure_by_owner_idx" ON "elements" USING btree ("status",structure collate "C","owner" asc,"id" desc,"state","revision","name") WHERE not fixed;--> statement-breakpoint
CREATE INDEX "elements_structure_by_owner_desc_idx" ON "elements" USING btree ("status",structure collate "C","owner" desc,"id" desc,"state","revision","name") WHERE not fixed;--> statement-breakpoint
CREATE INDEX "elements_by_state_idx" ON "elements" USING btree ("status","state" collate "C" asc nulls first,"id" desc,structure collate "C","owner","revision","name") WHERE not fixed;--> statement-breakpoint
CREATE INDEX "elements_by_state_desc_idx" ON "elements" USING btree ("status","state" collate "C" desc nulls last,"id" desc,structure collate "C","owner","revision","name") WHERE not fixed;--> statement-breakpoint
CREATE INDEX "elements_structure_by_state_idx" ON "elements" USING btree ("status",structure collate "C","state" collate "C" asc nulls first,"id" desc,"owner","revision","name") WHERE not fixed;--> statement-breakpoint
CREATE INDEX "elements_structure_by_state_desc_idx" ON "elements" USING btree ("status",structure collate "C","state" collate "C" desc nulls last,"id" desc,"owner","revision","name") WHERE not fixed;--> statement-breakpoint
CREATE INDEX "elements_by_cdate_idx" ON "elements" USING btree ("status","created_at" collate "C" asc,"id" desc,structure collate "C","owner","state","revision","name") WHERE not fixed;--> statement-breakpoint
CREATE INDEX "elements_by_cdate_desc_idx" ON "elements" USING btree ("status","created_at" collate "C" desc,"id" desc,structure collate "C","owner","state","revision","name") WHERE not fixed;--> statement-breakpoint
CREATE INDEX "elements_structure_by_cdate_idx" ON "elements" USING btree ("status",structure collate "C","created_at" collate "C" asc,"id" desc,"owner","state","revision","name") WHERE not fixed;--> statement-breakpoint
CREATE INDEX "elements_structure_by_cdate_desc_idx" ON "elements" USING btree ("status",structure collate "C","created_at" collate "C" desc,"id" desc,"owner","state","revision","name") WHERE not fixed;--> statement-breakpoint
CREATE INDEX "elements_by_mdate_idx" ON "elements" USING btree ("status","modified_at" collate "C" asc,"id" desc,structure collate "C","owner","state","revision","name") WHERE not fixed;--> statement-breakpoint
CREATE INDEX "elements_by_mdate_desc_idx" ON "elements" USING btree ("status","modified_at" collate "C" desc,"id" desc,structure collate "C","owner","state","revision","name") WHERE not fixed;--> statement-breakpoint
CREATE INDEX "elements_structure_by_mdate_idx" ON "elements" USING btree ("status",structure collate "C","modified_at" collate "C" asc,"id" desc,"owner","state","revision","name") WHERE not fixed;--> statement-breakpoint
CREATE INDEX "elements_structure_by_mdate_desc_idx" ON "elements" USING btree ("status",structure collate "C","modified_at" collate "C" desc,"id" desc,"owner","state","revision","name") WHERE not fixed;--> statement-breakpoint
CREATE INDEX "elements_by_fromid_idx" ON "elements" USING btree ("status","structure_id" asc nulls first,"id" desc,structure collate "C","owner","state","revision","name") WHERE not fixed;--> statement-breakpoint
CREATE INDEX "elements_by_fromid_desc_idx" ON "elements" USING btree ("status","structure_id" desc nulls last,"id" desc,structure collate "C","owner","state","revision","name") WHERE not fixed;--> statement-breakpoint
-- Written by hand after drizzle-kit's statements (the schema has no word for functions and triggers).
-- The revisions stored before know their structure by name only.
UPDATE "elements" SET "structure_id" = (SELECT "id" FROM "structures" WHERE "structures"."name" = "elements"."structure");--> statement-breakpoint
-- The sort key of a field's value, as the API orders JSON values (schema.ts, elementSortKeys).
-- A set of one row, so that PostgreSQL inlines it where a query joins it (LATERAL), as the list does when it sorts.
CREATE FUNCTION lineage_sort_key(doc json, field text) RETURNS TABLE (rank smallint, num numeric, txt text)
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT (CASE WHEN t IS NULL OR t = 'null' THEN 0 WHEN t IN ('number', 'boolean') THEN 1 ELSE 2 END)::smallint,
    CASE t WHEN 'number' THEN ((doc -> field)::text)::numeric WHEN 'boolean' THEN (CASE WHEN (doc -> field)::text = 'true' THEN 1 ELSE 0 END) END,
    CASE WHEN t IN ('string', 'array', 'object') THEN doc ->> field END
  FROM (SELECT json_typeof(doc -> field) AS t) AS typed
$$;--> statement-breakpoint
-- Keeps element_sort_keys: the keys of a live revision's indexed fields, none for a fixed one.
CREATE FUNCTION lineage_element_sort_keys() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    DELETE FROM element_sort_keys WHERE element_id = OLD.id;
  END IF;
  IF TG_OP <> 'DELETE' AND NOT NEW.fixed THEN
    INSERT INTO element_sort_keys (element_id, structure, field, status, rank, num, txt)
    SELECT NEW.id, NEW.structure, f.field, NEW.status, k.rank, k.num, k.txt
    FROM structures s CROSS JOIN unnest(s.sort_fields) AS f(field) CROSS JOIN LATERAL lineage_sort_key(NEW."values", f.field) AS k
    WHERE s.name = NEW.structure;
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER elements_sort_keys AFTER INSERT OR DELETE OR UPDATE OF structure, status, fixed, "values" ON elements
FOR EACH ROW EXECUTE FUNCTION lineage_element_sort_keys();