DROP INDEX "elements_by_id_idx";--> statement-breakpoint
DROP INDEX "elements_by_initid_idx";--> statement-breakpoint
DROP INDEX "elements_by_structure_idx";--> statement-breakpoint
DROP INDEX "elements_by_structure_desc_idx";--> statement-breakpoint
DROP INDEX "elements_structure_by_initid_idx";--> statement-breakpoint
DROP INDEX "elements_by_title_idx";--> statement-breakpoint
DROP INDEX "elements_by_title_desc_idx";--> statement-breakpoint
DROP INDEX "elements_structure_by_title_idx";--> statement-breakpoint
DROP INDEX "elements_structure_by_title_desc_idx";--> statement-breakpoint
DROP INDEX "elements_by_name_idx";--> statement-breakpoint
DROP INDEX "elements_by_name_desc_idx";--> statement-breakpoint
DROP INDEX "elements_structure_by_name_idx";--> statement-breakpoint
DROP INDEX "elements_structure_by_name_desc_idx";--> statement-breakpoint
DROP INDEX "elements_by_revision_idx";--> statement-breakpoint
DROP INDEX "elements_by_revision_desc_idx";--> statement-breakpoint
DROP INDEX "elements_structure_by_revision_idx";--> statement-breakpoint
DROP INDEX "elements_structure_by_revision_desc_idx";--> statement-breakpoint
DROP INDEX "elements_by_owner_idx";--> statement-breakpoint
DROP INDEX "elements_by_owner_desc_idx";--> statement-breakpoint
DROP INDEX "elements_structure_by_owner_idx";--> statement-breakpoint
DROP INDEX "elements_structure_by_owner_desc_idx";--> statement-breakpoint
DROP INDEX "elements_by_state_idx";--> statement-breakpoint
DROP INDEX "elements_by_state_desc_idx";--> statement-breakpoint
DROP INDEX "elements_structure_by_state_idx";--> statement-breakpoint
DROP INDEX "elements_structure_by_state_desc_idx";--> statement-breakpoint
DROP INDEX "elements_by_cdate_idx";--> statement-breakpoint
DROP INDEX "elements_by_cdate_desc_idx";--> statement-breakpoint
DROP INDEX "elements_structure_by_cdate_idx";--> statement-breakpoint
DROP INDEX "elements_structure_by_cdate_desc_idx";--> statement-breakpoint
DROP INDEX "elements_by_mdate_idx";--> statement-breakpoint
DROP INDEX "elements_by_mdate_desc_idx";--> statement-breakpoint
DROP INDEX "elements_structure_by_mdate_idx";--> statement-breakpoint
DROP INDEX "elements_structure_by_mdate_desc_idx";--> statement-breakpoint
DROP INDEX "elements_by_fromid_idx";--> statement-breakpoint
DROP INDEX "elements_by_fromid_desc_idx";--> statement-breakpoint
ALTER TABLE "elements" ADD COLUMN "own_profile" text;--> statement-breakpoint
ALTER TABLE "elements" ADD COLUMN "profile" text;--> statement-breakpoint
CREATE INDEX "elements_by_id_idx" ON "elements" USING btree ("status","id" desc,structure collate "C","profile") WHERE not fixed;--> statement-breakpoint
CREATE INDEX "elements_by_initid_idx" ON "elements" USING btree ("status","initid","id",structure collate "C","profile","owner","state","revision","name") WHERE not fixed;--> statement-breakpoint
CREATE INDEX "elements_by_structure_idx" ON "elements" USING btree ("status",structure collate "C","id" desc,"profile") WHERE not fixed;--> statement-breakpoint
CREATE INDEX "elements_by_structure_desc_idx" ON "elements" USING btree ("status","structure" collate "C" desc,"id" desc,"profile") WHERE not fixed;--> statement-breakpoint
CREATE INDEX "elements_structure_by_initid_idx" ON "elements" USING btree ("status",structure collate "C","initid","id","owner","state","revision","name","profile") WHERE not fixed;--> statement-breakpoint
CREATE INDEX "elements_by_title_idx" ON "elements" USING btree ("status","title" collate "C" asc,"id" desc,structure collate "C","profile","owner","state","revision","name") WHERE not fixed;--> statement-breakpoint
CREATE INDEX "elements_by_title_desc_idx" ON "elements" USING btree ("status","title" collate "C" desc,"id" desc,structure collate "C","profile","owner","state","revision","name") WHERE not fixed;--> statement-breakpoint
CREATE INDEX "elements_structure_by_title_idx" ON "elements" USING btree ("status",structure collate "C","title" collate "C" asc,"id" desc,"owner","state","revision","name","profile") WHERE not fixed;--> statement-breakpoint
CREATE INDEX "elements_structure_by_title_desc_idx" ON "elements" USING btree ("status",structure collate "C","title" collate "C" desc,"id" desc,"owner","state","revision","name","profile") WHERE not fixed;--> statement-breakpoint
CREATE INDEX "elements_by_name_idx" ON "elements" USING btree ("status","name" collate "C" asc nulls first,"id" desc,structure collate "C","profile","owner","state","revision") WHERE not fixed;--> statement-breakpoint
CREATE INDEX "elements_by_name_desc_idx" ON "elements" USING btree ("status","name" collate "C" desc nulls last,"id" desc,structure collate "C","profile","owner","state","revision") WHERE not fixed;--> statement-breakpoint
CREATE INDEX "elements_structure_by_name_idx" ON "elements" USING btree ("status",structure collate "C","name" collate "C" asc nulls first,"id" desc,"owner","state","revision","profile") WHERE not fixed;--> statement-breakpoint
CREATE INDEX "elements_structure_by_name_desc_idx" ON "elements" USING btree ("status",structure collate "C","name" collate "C" desc nulls last,"id" desc,"owner","state","revision","profile") WHERE not fixed;--> statement-breakpoint
CREATE INDEX "elements_by_revision_idx" ON "elements" USING btree ("status","revision" asc,"id" desc,structure collate "C","profile","owner","state","name") WHERE not fixed;--> statement-breakpoint
CREATE INDEX "elements_by_revision_desc_idx" ON "elements" USING btree ("status","revision" desc,"id" desc,structure collate "C","profile","owner","state","name") WHERE not fixed;--> statement-breakpoint
CREATE INDEX "elements_structure_by_revision_idx" ON "elements" USING btree ("status",structure collate "C","revision" asc,"id" desc,"owner","state","name","profile") WHERE not fixed;--> statement-breakpoint
CREATE INDEX "elements_structure_by_revision_desc_idx" ON "elements" USING btree ("status",structure collate "C","revision" desc,"id" desc,"owner","state","name","profile") WHERE not fixed;--> statement-breakpoint
CREATE INDEX "elements_by_owner_idx" ON "elements" USING btree ("status","owner" asc,"id" desc,structure collate "C","profile","state","revision","name") WHERE not fixed;--> statement-breakpoint
CREATE INDEX "elements_by_owner_desc_idx" ON "elements" USING btree ("status","owner" desc,"id" desc,structure collate "C","profile","state","revision","name") WHERE not fixed;--> statement-breakpoint
CREATE INDEX "elements_structure_by_owner_idx" ON "elements" USING btree ("status",structure collate "C","owner" asc,"id" desc,"state","revision","name","profile") WHERE not fixed;--> statement-breakpoint
CREATE INDEX "elements_structure_by_owner_desc_idx" ON "elements" USING btree ("status",structure collate "C","owner" desc,"id" desc,"state","revision","name","profile") WHERE not fixed;--> statement-breakpoint
CREATE INDEX "elements_by_state_idx" ON "elements" USING btree ("status","state" collate "C" asc nulls first,"id" desc,structure collate "C","profile","owner","revision","name") WHERE not fixed;--> statement-breakpoint
CREATE INDEX "elements_by_state_desc_idx" ON "elements" USING btree ("status","state" collate "C" desc nulls last,"id" desc,structure collate "C","profile","owner","revision","name") WHERE not fixed;--> statement-breakpoint
CREATE INDEX "elements_structure_by_state_idx" ON "elements" USING btree ("status",structure collate "C","state" collate "C" asc nulls first,"id" desc,"owner","revision","name","profile") WHERE not fixed;--> statement-breakpoint
CREATE INDEX "elements_structure_by_state_desc_idx" ON "elements" USING btree ("status",structure collate "C","state" collate "C" desc nulls last,"id" desc,"owner","revision","name","profile") WHERE not fixed;--> statement-breakpoint
CREATE INDEX "elements_by_cdate_idx" ON "elements" USING btree ("status","created_at" collate "C" asc,"id" desc,structure collate "C","profile","owner","state","revision","name") WHERE not fixed;--> statement-breakpoint
CREATE INDEX "elements_by_cdate_desc_idx" ON "elements" USING btree ("status","created_at" collate "C" desc,"id" desc,structure collate "C","profile","owner","state","revision","name") WHERE not fixed;--> statement-breakpoint
CREATE INDEX "elements_structure_by_cdate_idx" ON "elements" USING btree ("status",structure collate "C","created_at" collate "C" asc,"id" desc,"owner","state","revision","name","profile") WHERE not fixed;--> statement-breakpoint
CREATE INDEX "elements_structure_by_cdate_desc_idx" ON "elements" USING btree ("status",structure collate "C","created_at" collate "C" desc,"id" desc,"owner","state","revision","name","profile") WHERE not fixed;--> statement-breakpoint
CREATE INDEX "elements_by_mdate_idx" ON "elements" USING btree ("status","modified_at" collate "C" asc,"id" desc,structure collate "C","profile","owner","state","revision","name") WHERE not fixed;--> statement-breakpoint
CREATE INDEX "elements_by_mdate_desc_idx" ON "elements" USING btree ("status","modified_at" collate "C" desc,"id" desc,structure collate "C","profile","owner","state","revision","name") WHERE not fixed;--> statement-breakpoint
CREATE INDEX "elements_structure_by_mdate_idx" ON "elements" USING btree ("status",structure collate "C","modified_at" collate "C" asc,"id" desc,"owner","state","revision","name","profile") WHERE not fixed;--> statement-breakpoint
CREATE INDEX "elements_structure_by_mdate_desc_idx" ON "elements" USING btree ("status",structure collate "C","modified_at" collate "C" desc,"id" desc,"owner","state","revision","name","profile") WHERE not fixed;--> statement-breakpoint
CREATE INDEX "elements_by_fromid_idx" ON "elements" USING btree ("status","structure_id" asc nulls first,"id" desc,structure collate "C","profile","owner","state","revision","name") WHERE not fixed;--> statement-breakpoint
CREATE INDEX "elements_by_fromid_desc_idx" ON "elements" USING btree ("status","structure_id" desc nulls last,"id" desc,structure collate "C","profile","owner","state","revision","name") WHERE not fixed;--> statement-breakpoint
-- Written by hand after drizzle-kit's statements (the schema has no word for statistics).
-- The planner's estimate of the rights condition (readable-condition.ts), which it would otherwise guess: how many
-- entries a page walks before it has its rows, against sorting the rows a caller may view.
CREATE STATISTICS "elements_readable_stats" ON (coalesce('p:' || profile, 's:' || structure)) FROM "elements";
