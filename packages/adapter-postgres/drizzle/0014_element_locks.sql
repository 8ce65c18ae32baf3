CREATE TABLE "element_locks" (
	"initid" integer PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"temporary" boolean NOT NULL,
	"locked_at" text NOT NULL
);
