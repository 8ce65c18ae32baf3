CREATE TABLE `webhook_attempts` (
	`delivery_id` text NOT NULL,
	`attempt` integer NOT NULL,
	`node` text NOT NULL,
	`started_at` integer NOT NULL,
	`ended_at` integer,
	`status_code` integer,
	`error` text,
	PRIMARY KEY(`delivery_id`, `attempt`),
	FOREIGN KEY (`delivery_id`) REFERENCES `webhook_deliveries`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `webhook_deliveries` (
	`id` text PRIMARY KEY NOT NULL,
	`webhook_id` text NOT NULL,
	`seq` integer NOT NULL,
	`initid` integer NOT NULL,
	`type` text NOT NULL,
	`body` text NOT NULL,
	`status` text NOT NULL,
	`attempts` integer NOT NULL,
	`since` integer NOT NULL,
	`next_attempt_at` integer NOT NULL,
	`lease_owner` text,
	`lease_until` integer,
	`last_status_code` integer,
	`last_error` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`delivered_at` integer,
	FOREIGN KEY (`webhook_id`) REFERENCES `webhooks`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `webhook_deliveries_due_idx` ON `webhook_deliveries` (`next_attempt_at`) WHERE "webhook_deliveries"."status" = 'pending';--> statement-breakpoint
CREATE INDEX `webhook_deliveries_element_idx` ON `webhook_deliveries` (`webhook_id`,`initid`,`seq`) WHERE "webhook_deliveries"."status" = 'pending';--> statement-breakpoint
CREATE UNIQUE INDEX `webhook_deliveries_webhook_seq_unique` ON `webhook_deliveries` (`webhook_id`,`seq`);--> statement-breakpoint
CREATE TABLE `webhooks` (
	`id` text PRIMARY KEY NOT NULL,
	`url` text NOT NULL,
	`types` text NOT NULL,
	`structures` text NOT NULL,
	`description` text NOT NULL,
	`secret` text NOT NULL,
	`created_at` integer NOT NULL,
	`cursor` integer NOT NULL,
	`failing_since` integer,
	`disabled_at` integer
);
