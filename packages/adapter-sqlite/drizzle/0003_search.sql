CREATE TABLE `search_changes` (
	`initid` integer PRIMARY KEY NOT NULL,
	`structure` text NOT NULL,
	`seq` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `search_changes_seq_idx` ON `search_changes` (`seq`);--> statement-breakpoint
CREATE TABLE `search_domains` (
	`name` text PRIMARY KEY NOT NULL,
	`definition` text NOT NULL,
	`generation` integer DEFAULT 0 NOT NULL
);
