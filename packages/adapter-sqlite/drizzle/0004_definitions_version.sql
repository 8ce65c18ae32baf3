CREATE TABLE `definitions_version` (
	`id` integer PRIMARY KEY NOT NULL,
	`version` integer NOT NULL,
	CONSTRAINT "definitions_version_one_row" CHECK("definitions_version"."id" = 1)
);
