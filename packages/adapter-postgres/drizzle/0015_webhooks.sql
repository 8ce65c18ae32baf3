CREATE TABLE "webhook_attempts" (
	"delivery_id" text NOT NULL,
	"attempt" integer NOT NULL,
	"node" text NOT NULL,
	"started_at" bigint NOT NULL,
	"ended_at" bigint,
	"status_code" integer,
	"error" text,
	CONSTRAINT "webhook_attempts_delivery_id_attempt_pk" PRIMARY KEY("delivery_id","attempt")
);
--> statement-breakpoint
CREATE TABLE "webhook_deliveries" (
	"id" text PRIMARY KEY NOT NULL,
	"webhook_id" text NOT NULL,
	"seq" bigint NOT NULL,
	"initid" integer NOT NULL,
	"type" text NOT NULL,
	"body" text NOT NULL,
	"status" text NOT NULL,
	"attempts" integer NOT NULL,
	"since" bigint NOT NULL,
	"next_attempt_at" bigint NOT NULL,
	"lease_owner" text,
	"lease_until" bigint,
	"last_status_code" integer,
	"last_error" text,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL,
	"delivered_at" bigint,
	CONSTRAINT "webhook_deliveries_webhook_seq_unique" UNIQUE("webhook_id","seq")
);
--> statement-breakpoint
CREATE TABLE "webhooks" (
	"id" text PRIMARY KEY NOT NULL,
	"url" text NOT NULL,
	"types" json NOT NULL,
	"structures" json NOT NULL,
	"description" text NOT NULL,
	"secret" text NOT NULL,
	"created_at" bigint NOT NULL,
	"cursor" bigint NOT NULL,
	"failing_since" bigint,
	"disabled_at" bigint
);
--> statement-breakpoint
ALTER TABLE "webhook_attempts" ADD CONSTRAINT "webhook_attempts_delivery_id_webhook_deliveries_id_fk" FOREIGN KEY ("delivery_id") REFERENCES "public"."webhook_deliveries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_webhook_id_webhooks_id_fk" FOREIGN KEY ("webhook_id") REFERENCES "public"."webhooks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "webhook_deliveries_due_idx" ON "webhook_deliveries" USING btree ("next_attempt_at") WHERE "webhook_deliveries"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "webhook_deliveries_element_idx" ON "webhook_deliveries" USING btree ("webhook_id","initid","seq") WHERE "webhook_deliveries"."status" = 'pending';