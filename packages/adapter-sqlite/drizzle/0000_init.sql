CREATE TABLE `accounts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`login` text NOT NULL,
	`display_name` text NOT NULL,
	`password_hash` text,
	`roles` text NOT NULL,
	`groups` text NOT NULL,
	`locale` text NOT NULL,
	`rights` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `accounts_login_unique` ON `accounts` (`login`);--> statement-breakpoint
CREATE TABLE `elements` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`initid` integer NOT NULL,
	`revision` integer NOT NULL,
	`structure` text NOT NULL,
	`name` text,
	`title` text NOT NULL,
	`owner` integer NOT NULL,
	`status` text NOT NULL,
	`fixed` integer NOT NULL,
	`state` text,
	`values` text NOT NULL,
	`created_at` text NOT NULL,
	`modified_at` text NOT NULL,
	`import_key` text
);
--> statement-breakpoint
CREATE INDEX `elements_list_idx` ON `elements` (`status`,`fixed`,`title`,"id" desc);--> statement-breakpoint
CREATE INDEX `elements_structure_list_idx` ON `elements` (`structure`,`status`,`fixed`,`title`,"id" desc);--> statement-breakpoint
CREATE INDEX `elements_initid_idx` ON `elements` (`initid`,`revision`);--> statement-breakpoint
CREATE INDEX `elements_name_idx` ON `elements` (`name`,`fixed`);--> statement-breakpoint
CREATE INDEX `elements_import_key_idx` ON `elements` (`import_key`);--> statement-breakpoint
CREATE TABLE `enumerates` (
	`name` text PRIMARY KEY NOT NULL,
	`definition` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `groups` (
	`id` text PRIMARY KEY NOT NULL,
	`label` text,
	`roles` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `history` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`initid` integer NOT NULL,
	`revision_id` integer NOT NULL,
	`revision` integer NOT NULL,
	`account_id` integer NOT NULL,
	`account_name` text NOT NULL,
	`date` text NOT NULL,
	`level` text NOT NULL,
	`code` text,
	`comment` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `history_initid_idx` ON `history` (`initid`,`revision`,`date`);--> statement-breakpoint
CREATE TABLE `lifecycles` (
	`name` text PRIMARY KEY NOT NULL,
	`definition` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `profiles` (
	`name` text PRIMARY KEY NOT NULL,
	`definition` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `roles` (
	`id` text PRIMARY KEY NOT NULL,
	`label` text
);
--> statement-breakpoint
CREATE TABLE `structures` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`definition` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `structures_name_unique` ON `structures` (`name`);--> statement-breakpoint
CREATE TABLE `vault_files` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`sha256` text NOT NULL,
	`name` text NOT NULL,
	`mime` text NOT NULL,
	`size` integer NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `vault_files_sha256_name_unique` ON `vault_files` (`sha256`,`name`);