CREATE TABLE "login_failures" (
	"key" text PRIMARY KEY NOT NULL,
	"failures" integer NOT NULL,
	"last_failure_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE INDEX "login_failures_last_idx" ON "login_failures" USING btree ("last_failure_at");