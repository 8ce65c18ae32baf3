CREATE SEQUENCE "public"."event_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
CREATE TABLE "events" (
	"seq" bigint PRIMARY KEY NOT NULL,
	"time" text NOT NULL,
	"type" text NOT NULL,
	"initid" integer NOT NULL,
	"structure" text NOT NULL,
	"body" json NOT NULL
);
--> statement-breakpoint
CREATE TABLE "events_pruned" (
	"id" integer PRIMARY KEY NOT NULL,
	"seq" bigint NOT NULL,
	CONSTRAINT "events_pruned_one_row" CHECK ("events_pruned"."id" = 1)
);
--> statement-breakpoint
CREATE INDEX "events_structure_idx" ON "events" USING btree ("structure","seq");