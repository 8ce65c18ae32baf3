CREATE TABLE `events` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`time` text NOT NULL,
	`type` text NOT NULL,
	`initid` integer NOT NULL,
	`structure` text NOT NULL,
	`body` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `events_structure_idx` ON `events` (`structure`,`seq`);--> statement-breakpoint
CREATE TABLE `events_pruned` (
	`id` integer PRIMARY KEY NOT NULL,
	`seq` integer NOT NULL,
	CONSTRAINT "events_pruned_one_row" CHECK("events_pruned"."id" = 1)
);
