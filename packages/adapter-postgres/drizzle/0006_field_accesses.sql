CREATE TABLE "field_accesses" (
	"name" text PRIMARY KEY NOT NULL,
	"definition" json NOT NULL
);
